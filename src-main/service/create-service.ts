/**
 * Starts the whole service: store, catalogue, job engine, HTTP app, listener (and the live WebSocket). `close()`
 * shuts down in the order docs/design.md §6.8 asks: refuse new connections, release held POSTs, let the job engine
 * finish or requeue running work, then close the database.
 */
import { createAdaptorServer } from '@hono/node-server';
import type { Hono } from 'hono';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { ModelSource } from '../engines/model-definition.js';
import { ModelManager } from '../engines/models/model-manager.js';
import { modelManagerSource } from '../engines/models/model-manager-source.js';
import { createRemoteProvider, type RemoteProvider } from '../remote/remote-provider.js';
import { createJobService } from '../jobs/job-service.js';
import type { JobService } from '../jobs/job-service-types.js';
import { openDatabase, type Db } from '../store/database.js';
import { createRepositories, type Repositories } from '../store/repositories.js';
import type { AppDeps } from './app-deps.js';
import { buildApp, type AppEnv } from './app.js';
import { ApiKeys, type KeyOwner } from './auth/api-keys.js';
import { Origins } from './auth/origins.js';
import { BUILTIN_MODEL_SOURCES, FALLBACK_MODEL_SOURCES } from './catalogue/builtin-sources.js';
import { Catalogue } from './catalogue/catalogue.js';
import { engineFamilies } from './catalogue/engine-families.js';
import { loadPricingFile } from './catalogue/pricing-file.js';
import { LOCAL_ACCOUNT, resolveConfig, type ServiceConfig } from './config.js';
import { attachLiveServer, type LiveServer } from './live/live-server.js';
import { ParamsValidator } from './params/params-validator.js';

export interface Service {
  /** `http://HOST:PORT` as listened on. */
  readonly url: string;
  readonly port: number;
  readonly app: Hono<AppEnv>;
  readonly jobs: JobService;
  readonly catalogue: Catalogue;
  readonly db: Db;
  /** The store's repositories, built once here and shared by every part. */
  readonly repos: Repositories;
  readonly keys: ApiKeys;
  readonly config: ServiceConfig;
  readonly server: Server;
  readonly models: ModelManager;
  readonly remote: RemoteProvider;
  readonly live: LiveServer;
  /** A key valid until this process stops, for an account (default the local one): the CLI and the browser UI. */
  sessionKey(accountName?: string): string;
  /** Graceful shutdown; resolves once the database is closed. Safe to call twice. */
  close(graceMs?: number): Promise<void>;
}

/** How long close() waits for running jobs before they are requeued. Default 10 s (the job engine's own default). */
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(new Error(`cannot listen on ${host}:${port}: ${error.message}`, { cause: error }));
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

export async function createService(partial: Partial<ServiceConfig> = {}): Promise<Service> {
  const config = resolveConfig(partial);
  mkdirSync(config.dataDir, { recursive: true });
  const uploadsDir = join(config.dataDir, 'uploads');
  mkdirSync(uploadsDir, { recursive: true });
  const db = openDatabase(join(config.dataDir, 'voxdesk.db'));
  const repos = createRepositories(db);
  let jobs: JobService | null = null;
  let models: ModelManager | null = null;
  let remote: RemoteProvider | null = null;
  try {
    const keys = new ApiKeys(repos.accounts);
    const localAccountId = keys.ensureAccount(LOCAL_ACCOUNT);
    if (config.apiKey) keys.registerKey(LOCAL_ACCOUNT, config.apiKey);

    const ctx = { dataDir: config.dataDir };
    models = new ModelManager({ dataDir: config.dataDir, repos, log: config.log });
    remote = createRemoteProvider({ repos, log: config.log, ...(config.remoteUrl ? { initial: { url: config.remoteUrl } } : {}) });
    const sources: ModelSource[] = [
      ...[...config.extraModelSources, ...BUILTIN_MODEL_SOURCES].map((factory) => factory(ctx)),
      modelManagerSource({ ...ctx, manager: models, families: engineFamilies(config.log) }),
      remote.source,
      ...FALLBACK_MODEL_SOURCES.map((factory) => factory(ctx)),
    ];
    const catalogue = new Catalogue(sources, loadPricingFile(config.pricingFile), config.log, { maxUploadBytes: config.maxUploadBytes });

    let url = `http://${config.host}:${config.port}`;
    jobs = createJobService({
      repos,
      dataDir: config.dataDir,
      resolveModel: (id) => catalogue.resolveForJobs(id),
      ...(config.workers !== undefined ? { workers: config.workers } : {}),
      publicBaseUrl: () => url,
      runners: { remote: remote.jobRunner },
      workerLauncher: config.processLauncher,
    });

    const sessionKeys = new Map<string, KeyOwner>();
    const sessionKey = (accountName = LOCAL_ACCOUNT): string => {
      const key = `vdk_session_${randomBytes(24).toString('base64url')}`;
      sessionKeys.set(key, { accountId: accountName === LOCAL_ACCOUNT ? localAccountId : keys.ensureAccount(accountName), accountName });
      return key;
    };
    const closing = new AbortController();
    const origins = new Origins(config.allowedOrigins);
    const deps: AppDeps = {
      config,
      repos,
      jobs,
      catalogue,
      models,
      remote,
      validator: new ParamsValidator(),
      keys,
      origins,
      sessionKeys,
      uploadsDir,
      closing: closing.signal,
    };
    const manager = models;
    const provider = remote;
    const app = buildApp(deps, { sessionKey: config.serveUi ? sessionKey() : null });
    const server = createAdaptorServer({ fetch: app.fetch }) as Server;
    const port = await listen(server, config.port, config.host);
    origins.setListening(config.host, port);
    url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    const live = attachLiveServer(server, {
      authenticate: (key) => (sessionKeys.get(key) ?? keys.find(key))?.accountId,
      resolveModel: (id) => catalogue.resolveModel(id),
      pricingFor: (def) => catalogue.pricingFor(def),
      allowedOrigins: config.allowedOrigins,
      isOriginAllowed: (origin) => origins.isAllowed(origin),
      charge: (entry) => void repos.ledger.charge(entry),
      dataDir: config.dataDir,
      log: config.log,
      launcher: config.processLauncher,
    });
    models.start();
    remote.start();
    jobs.start();

    const jobService = jobs;
    let closed: Promise<void> | null = null;
    const close = (graceMs = DEFAULT_SHUTDOWN_GRACE_MS): Promise<void> =>
      (closed ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        closing.abort(new Error('the service is shutting down'));
        server.closeIdleConnections();
        await live.close();
        await Promise.all([jobService.shutdown(graceMs), manager.stop()]);
        // After the job engine: forwarded items may finish during its grace period.
        provider.stop();
        // Held POSTs were released above; whatever is still open after the jobs stopped is cut.
        const timer = setTimeout(() => server.closeAllConnections(), 2000);
        await stopped;
        clearTimeout(timer);
        db.close();
      })());

    return { url, port, app, jobs, catalogue, db, repos, keys, config, server, models: manager, remote: provider, live, sessionKey, close };
  } catch (error) {
    if (jobs) await jobs.shutdown(0).catch(() => undefined);
    remote?.stop();
    await models?.stop().catch(() => undefined);
    db.close();
    throw error;
  }
}
