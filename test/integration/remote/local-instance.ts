/**
 * The LOCAL side of the two-instance tests: the real service building blocks (store, catalogue, job engine, Hono
 * app, listener) with hosted forwarding wired exactly as createService is asked to wire it (see README / report):
 * the remote ModelSource in the catalogue, the remote JobRunner in the job engine, the settings routes, start/stop.
 * Kept here until createService wires the provider itself; then these tests can use startTestService().
 */
import { createAdaptorServer } from '@hono/node-server';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pocketsphinxModelSource } from '../../../src-main/engines/asr/pocketsphinx-models.js';
import type { RemoteOptions } from '../../../src-main/engines/remote/remote-options.js';
import { createRemoteProvider, type RemoteProvider } from '../../../src-main/engines/remote/remote-provider.js';
import { createJobService } from '../../../src-main/jobs/job-service.js';
import type { JobService } from '../../../src-main/jobs/job-service-types.js';
import type { AppDeps } from '../../../src-main/service/app-deps.js';
import { buildApp } from '../../../src-main/service/app.js';
import { ApiKeys, type KeyOwner } from '../../../src-main/service/auth/api-keys.js';
import { Origins } from '../../../src-main/service/auth/origins.js';
import { BUILTIN_MODEL_SOURCES } from '../../../src-main/service/catalogue/builtin-sources.js';
import { Catalogue } from '../../../src-main/service/catalogue/catalogue.js';
import { loadPricingFile } from '../../../src-main/service/catalogue/pricing-file.js';
import { LOCAL_ACCOUNT, resolveConfig } from '../../../src-main/service/config.js';
import { ParamsValidator } from '../../../src-main/service/params/params-validator.js';
import { registerSettingsRoutes } from '../../../src-main/service/routes/settings.js';
import { openDatabase, type Db } from '../../../src-main/store/database.js';

/** Short intervals for tests: the product defaults are minutes. */
export const TEST_REMOTE_OPTIONS: Partial<RemoteOptions> = {
  pollInitialMs: 100,
  pollMaxMs: 500,
  offlineInitialMs: 200,
  offlineMaxMs: 1000,
  requestTimeoutMs: 10_000,
  submitTimeoutMs: 30_000,
};

export interface LocalInstanceOptions {
  dataDir?: string;
  port?: number;
  remoteUrl?: string | null;
  remoteKey?: string | null;
  remoteOptions?: Partial<RemoteOptions>;
  holdSeconds?: number;
  env?: NodeJS.ProcessEnv;
}

export interface LocalInstance {
  url: string;
  port: number;
  key: string;
  dataDir: string;
  db: Db;
  jobs: JobService;
  remote: RemoteProvider;
  stop(removeDataDir?: boolean): Promise<void>;
}

export async function startLocalInstance(options: LocalInstanceOptions = {}): Promise<LocalInstance> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'voxdesk-local-'));
  const config = resolveConfig({ host: '127.0.0.1', port: options.port ?? 0, dataDir, holdSeconds: options.holdSeconds ?? 5, apiKey: null, pricingFile: null, log: () => {} });
  const uploadsDir = join(dataDir, 'uploads');
  mkdirSync(uploadsDir, { recursive: true });
  const db = openDatabase(join(dataDir, 'voxdesk.db'));
  const remote = createRemoteProvider({
    db,
    initial: { url: options.remoteUrl ?? null, key: options.remoteKey ?? null },
    options: { ...TEST_REMOTE_OPTIONS, ...options.remoteOptions },
    env: options.env ?? {},
    log: () => {},
  });
  const keys = new ApiKeys(db);
  keys.ensureAccount(LOCAL_ACCOUNT);
  const ctx = { dataDir };
  const sources = [...BUILTIN_MODEL_SOURCES, pocketsphinxModelSource].map((f) => f(ctx));
  const catalogue = new Catalogue([...sources, remote.source], loadPricingFile(null), () => {});
  let url = 'http://127.0.0.1';
  const jobs = createJobService({
    db,
    dataDir,
    resolveModel: (id) => catalogue.resolveModel(id),
    workers: 1,
    publicBaseUrl: () => url,
    runners: { remote: remote.jobRunner },
    schedulerIntervalMs: 200,
  });
  const closing = new AbortController();
  const origins = new Origins([]);
  const deps: AppDeps = {
    config,
    db,
    jobs,
    catalogue,
    validator: new ParamsValidator(),
    keys,
    origins,
    sessionKeys: new Map<string, KeyOwner>(),
    uploadsDir,
    closing: closing.signal,
  };
  const app = buildApp(deps, { extraRoutes: [(a) => registerSettingsRoutes(a, remote)] });
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  origins.setListening(config.host, port);
  url = `http://127.0.0.1:${port}`;
  jobs.start();
  remote.start();
  const key = keys.createKey(LOCAL_ACCOUNT);
  return {
    url,
    port,
    key,
    dataDir,
    db,
    jobs,
    remote,
    async stop(removeDataDir = options.dataDir === undefined) {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      closing.abort(new Error('the service is shutting down'));
      server.closeIdleConnections();
      remote.stop();
      await jobs.shutdown(2000);
      server.closeAllConnections();
      await stopped;
      db.close();
      if (removeDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
