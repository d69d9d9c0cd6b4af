/**
 * Scaffolding for the watch-folder tests: short watcher timings (a file is taken after 0.8 s without growing; folder
 * checks every 0.3 s), the settings route, and waiting for a folder's status to reach a condition.
 */
import { readdirSync } from 'node:fs';
import type { WatchFolder, WatchFolderInput } from '../../src-main/common/watch-folder-types.js';
import type { WatchTimings } from '../../src-main/watch/watch-folder-config.js';
import type { Client } from './http-client.js';
import { json } from './http-client.js';
import { waitFor } from './two-instances.js';
import { scaled } from './time-scale.js';

export const FAST_WATCH: Partial<WatchTimings> = { stabilityMs: 800, pollMs: 100, healthCheckMs: 300, retryMinMs: 300, retryMaxMs: 1000 };

export const WATCH_PATH = '/v1/settings/watch-folders';

export function putFolders(api: Client, folders: unknown): Promise<Response> {
  return fetch(api.url + WATCH_PATH, {
    method: 'PUT',
    headers: api.headers({ 'content-type': 'application/json' }),
    body: JSON.stringify({ folders }),
  });
}

export async function saveFolders(api: Client, folders: WatchFolderInput[]): Promise<WatchFolder[]> {
  return (await json<{ folders: WatchFolder[] }>(putFolders(api, folders))).folders;
}

export async function folderStatus(api: Client, path: string): Promise<WatchFolder> {
  const { folders } = await json<{ folders: WatchFolder[] }>(api.get(WATCH_PATH));
  const folder = folders.find((f) => f.path === path);
  if (!folder) throw new Error(`${path} is not a watch folder`);
  return folder;
}

/** Waits (up to 60 s) until the folder's status satisfies `ok`; answers that status. */
export function waitForFolder(api: Client, path: string, what: string, ok: (folder: WatchFolder) => boolean, timeoutMs = scaled(60_000)): Promise<WatchFolder> {
  return waitFor(`${path}: ${what}`, async () => {
    const folder = await folderStatus(api, path);
    return ok(folder) ? folder : undefined;
  }, timeoutMs);
}

/** The names in a folder, sorted. */
export function namesIn(dir: string): string[] {
  return readdirSync(dir).sort();
}

