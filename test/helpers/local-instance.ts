/**
 * The LOCAL side of the two-instance tests: the real service (startTestService → createService, which wires the
 * remote provider), pointed at the hosted instance through PUT /v1/settings/remote like the app's Settings do.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RemoteProvider } from '../../src-main/remote/remote-provider.js';
import type { JobService } from '../../src-main/jobs/engine/job-service-types.js';
import type { Db } from '../../src-main/store/database.js';
import type { Repositories } from '../../src-main/store/repositories.js';
import { startTestService } from './service.js';

export interface LocalInstanceOptions {
  /** Default: a temp dir, removed by stop(). */
  dataDir?: string;
  port?: number;
  remoteUrl?: string | null;
  remoteKey?: string | null;
  /** The local POST hold. Default 5 s. */
  holdSeconds?: number;
}

export interface LocalInstance {
  url: string;
  port: number;
  key: string;
  dataDir: string;
  db: Db;
  repos: Repositories;
  jobs: JobService;
  remote: RemoteProvider;
  stop(removeDataDir?: boolean): Promise<void>;
}

export async function startLocalInstance(options: LocalInstanceOptions = {}): Promise<LocalInstance> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'voxdesk-local-'));
  const test = await startTestService({ dataDir, port: options.port ?? 0, holdSeconds: options.holdSeconds ?? 5, workers: 1 });
  if (options.remoteUrl) {
    const response = await fetch(`${test.url}/v1/settings/remote`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${test.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: options.remoteUrl, key: options.remoteKey ?? null }),
    });
    if (response.status !== 200) throw new Error(`PUT /v1/settings/remote answered ${response.status}: ${await response.text()}`);
  }
  return {
    url: test.url,
    port: Number(new URL(test.url).port),
    key: test.key,
    dataDir,
    db: test.service.db,
    repos: test.service.repos,
    jobs: test.service.jobs,
    remote: test.service.remote,
    async stop(removeDataDir = options.dataDir === undefined) {
      await test.stop();
      if (removeDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A local instance forwarding to `hosted` (its URL and key), with the hosted catalogue already fetched. */
export async function startForwardingTo(hosted: { url: string; key: string }, options: Omit<LocalInstanceOptions, 'remoteUrl' | 'remoteKey'> = {}): Promise<LocalInstance> {
  const local = await startLocalInstance({ ...options, remoteUrl: hosted.url, remoteKey: hosted.key });
  await local.remote.source.refresh();
  return local;
}
