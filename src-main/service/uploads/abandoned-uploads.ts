/**
 * Uploads whose request never finished: the service (or, in a cluster, the API node) died while the body arrived, so
 * nothing will ever delete what was written. Left alone, such a folder stays on disk for good and counts against
 * the account's upload quota (upload-budget.ts measures the quota on disk), so every crash in the middle of a
 * 500 MB upload would take 500 MB from the person for ever.
 *
 * An upload's folder holds a marker (RECEIVING_MARKER) from before its first byte until its body has been read
 * whole (a failed read removes the whole folder, as before). A folder still marked, in which nothing has been written
 * for ABANDONED_UPLOAD_MS, is an abandoned upload: a body that stalls is cut long before that
 * (ServiceConfig.bodyIdleTimeoutMs), and an hour leaves room for the clocks of the machines that share the storage.
 * The sweep runs when the service starts and then every SWEEP_INTERVAL_MS, on every API node of a cluster alike.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Log } from '../../common/log.js';

export const RECEIVING_MARKER = '.receiving';
export const ABANDONED_UPLOAD_MS = 60 * 60 * 1000;
export const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/** The newest modification time of the files directly in `dir` (the folder itself included). */
async function lastWritten(dir: string): Promise<number> {
  let newest = (await stat(dir)).mtimeMs;
  for (const name of await readdir(dir)) {
    const written = await stat(join(dir, name)).then((s) => s.mtimeMs, () => 0);
    if (written > newest) newest = written;
  }
  return newest;
}

async function listDirs(path: string): Promise<string[]> {
  try {
    return (await readdir(path, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => join(path, entry.name));
  } catch {
    return []; // nothing uploaded yet
  }
}

async function marked(dir: string): Promise<boolean> {
  return stat(join(dir, RECEIVING_MARKER)).then(() => true, () => false);
}

/** Deletes the abandoned uploads under `uploadsDir` (one folder per account, one per upload); how many it deleted. */
export async function sweepAbandonedUploads(uploadsDir: string, options: { now?: number; idleMs?: number } = {}): Promise<number> {
  const now = options.now ?? Date.now();
  const idleMs = options.idleMs ?? ABANDONED_UPLOAD_MS;
  let deleted = 0;
  for (const account of await listDirs(uploadsDir)) {
    for (const upload of await listDirs(account)) {
      try {
        if (!(await marked(upload)) || now - (await lastWritten(upload)) < idleMs) continue;
        await rm(upload, { recursive: true, force: true });
        deleted += 1;
      } catch {
        // gone meanwhile (another node's sweep, retention): nothing to do
      }
    }
  }
  return deleted;
}

/** Sweeps now and every SWEEP_INTERVAL_MS until stopped; failures are logged, never thrown. */
export function sweepAbandonedUploadsEvery(uploadsDir: string, log: Log, intervalMs = SWEEP_INTERVAL_MS): { stop(): void } {
  const sweep = (): void => {
    sweepAbandonedUploads(uploadsDir).then(
      (deleted) => {
        if (deleted > 0) log.info(`uploads: deleted ${deleted} upload${deleted === 1 ? '' : 's'} abandoned mid-way (the service stopped while they arrived)`);
      },
      (error: Error) => log.info(`uploads: looking for abandoned uploads failed: ${error.message}`),
    );
  };
  sweep();
  const timer = setInterval(sweep, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
