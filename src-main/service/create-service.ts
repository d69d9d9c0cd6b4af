/**
 * Starts the whole service: store, catalogue, job engine, HTTP app, listener (and the live WebSocket). `close()`
 * shuts down in the order docs/design.md §6.8 asks: refuse new connections, release held POSTs, let the job engine
 * finish or requeue running work, then close the database.
 */
import { createAdaptorServer } from '@hono/node-server';
import type { Hono } from 'hono';
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelSource } from '../engines/model-definition.js';
import { CA_FILE_SETTING, MIRROR_SETTING } from '../models/downloads/download-source.js';
import { ModelManager } from '../models/model-manager.js';
import { ESPEAK_MODEL_ID } from '../engines/tts/espeak-models.js';
import { modelManagerSource } from '../models/catalogue-source.js';
import { createRemoteProvider, type RemoteProvider } from '../remote/remote-provider.js';
import { createJobService } from '../jobs/engine/job-service.js';
import type { JobService } from '../jobs/engine/job-service-types.js';
import { createTranscripts } from '../jobs/transcripts/transcripts.js';
import { RevokedKeyError } from '../store/accounts-repo.js';
import { openDatabase, type Db } from '../store/database.js';
import { ensurePrivateDir } from '../store/private-files.js';
import { openSecretStore } from '../store/secrets/open-secret-store.js';
import { builtInModels } from '../models/packages/built-in-models.js';
import type { Repositories } from '../store/repositories.js';
import { createSqliteStore } from '../store/sqlite-store.js';
import type { Store } from '../store/store.js';
import { WatchService } from '../watch/watch-service.js';
import type { AppDeps } from './app-deps.js';
import { buildApp, type AppEnv } from './app.js';
import { ApiKeys, type KeyOwner } from './auth/api-keys.js';
import { limiterKeyId, rateLimited } from './auth/auth-middleware.js';
import { BrowserLogin } from './auth/browser-login.js';
import { FailedAuthLimiter } from './auth/failed-auth-limiter.js';
import { Origins } from './auth/origins.js';
import { BUILTIN_MODEL_SOURCES, FALLBACK_MODEL_SOURCES } from './catalogue/builtin-sources.js';
import { Catalogue } from './catalogue/catalogue.js';
import { livePricingFile, loadPricingFile } from './catalogue/pricing-file.js';
import { boundUnreadBodies } from './http/unread-body.js';
import { allowWholeBodies } from './http/body-idle-timeout.js';
import { LOCAL_ACCOUNT, resolveConfig, type ServiceConfig } from './config.js';
import { attachLiveServer, type LiveServer } from './live/live-server.js';
import { ParamsValidator } from './params/params-validator.js';
import { UploadBudget } from './uploads/upload-budget.js';
import { warmUpHttp, type WarmUpResult } from './start-up-warm-up.js';
import { createWatchSubmitter } from './watch-folders/watch-submitter.js';
import { ExportRenderer } from './exports/export-renderer.js';

export interface Service {
  /** `http://HOST:PORT` as listened on. */
  readonly url: string;
  readonly port: number;
  readonly app: Hono<AppEnv>;
  readonly jobs: JobService;
  readonly catalogue: Catalogue;
  readonly db: Db;
  /** The job store (both backends answer through it). */
  readonly store: Store;
  /** The embedded store's synchronous repositories (AppDeps.repos). */
  readonly repos: Repositories;
  readonly keys: ApiKeys;
  readonly config: ServiceConfig;
  readonly server: Server;
  readonly models: ModelManager;
  readonly remote: RemoteProvider;
  readonly live: LiveServer;
  /** The watch folders (started with the service, stopped first when it closes). */
  readonly watch: WatchService;
  /** The start-up warm-up request's answer (start-up-warm-up.ts); nothing waits for it. */
  readonly warmUp: Promise<WarmUpResult>;
  /** A key valid until this process stops, for an account (default the local one): the CLI and the browser UI. */
  sessionKey(accountName?: string): string;
  /**
   * Browser mode only (serveUi): the UI's address with a fresh one-time login token, `URL/#token=…` (the previous
   * token stops working). Null without serveUi.
   */
  browserLoginUrl(): string | null;
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

/** Registers VOXDESK_API_KEY (or the desktop app's key); a revoked one stops the start with a message naming it. */
function registerConfiguredKey(keys: ApiKeys, config: ServiceConfig): void {
  try {
    keys.registerKey(LOCAL_ACCOUNT, config.apiKey!, config.apiKeyName);
  } catch (error) {
    if (error instanceof RevokedKeyError) {
      throw new RevokedKeyError(error.keyId, `${config.apiKeyName} was revoked (${error.keyId}, voxdesk keys list shows it); use another key`);
    }
    throw error;
  }
}

export async function createService(partial: Partial<ServiceConfig> = {}): Promise<Service> {
  const config = resolveConfig(partial);
  // The data dir and what is in it are private to the person (0700 folders, 0600 files; store/private-files.ts).
  ensurePrivateDir(config.dataDir);
  const uploadsDir = join(config.dataDir, 'uploads');
  ensurePrivateDir(uploadsDir);
  // Where job runs write (the job engine's artifacts dir): made now, not by the first job's worker (6–15 ms then).
  ensurePrivateDir(join(config.dataDir, 'artifacts'));
  // The private folder of the start-up warm-up job of earlier versions (a kill during it left it behind).
  rmSync(join(config.dataDir, 'warm-up'), { recursive: true, force: true });
  const dbFile = join(config.dataDir, 'voxdesk.db');
  const db = openDatabase(dbFile);
  const store = createSqliteStore(db, dbFile);
  const repos = store.sync;
  const durability = store.durability;
  // What a failed start must close, in the order it was opened (undone in reverse): a failure after listening used
  // to leave the port taken and the live server, the workers' start and the background compiles behind.
  const opened: (() => unknown)[] = [() => db.close()];
  try {
    const keys = new ApiKeys(repos.accounts);
    const localAccountId = keys.ensureAccount(LOCAL_ACCOUNT);
    if (config.apiKey) registerConfiguredKey(keys, config);

    const secrets = await openSecretStore({ dataDir: config.dataDir, repo: repos.secrets, mode: config.secretStore, provided: config.secretCipher, log: config.log });
    const models = await ModelManager.open({
      dataDir: config.dataDir,
      store,
      log: config.log,
      ...(config.modelPackages ? { packages: config.modelPackages } : {}),
      ...(config.builtInModels ? { builtIn: builtInModels() } : {}),
    });
    opened.push(() => models.stop());
    const ctx = {
      dataDir: config.dataDir,
      vadModel: () => models.supportModelPath('silero-vad'),
      punctuationModel: () => models.supportModelPath('punctuation'),
    };
    // Given on the command line: kept as the settings, like --remote-url, so the Models tab shows what is in force.
    if (config.modelMirror) await store.repos.settings.set(MIRROR_SETTING, config.modelMirror);
    if (config.caFile) await store.repos.settings.set(CA_FILE_SETTING, config.caFile);
    const remote = createRemoteProvider({ repos, secrets, log: config.log, ...(config.remoteUrl ? { initial: { url: config.remoteUrl } } : {}) });
    opened.push(() => remote.stop());
    const sources: ModelSource[] = [
      ...[...config.extraModelSources, ...BUILTIN_MODEL_SOURCES].map((factory) => factory(ctx)),
      modelManagerSource({ ...ctx, manager: models, log: config.log }),
      remote.source,
      ...FALLBACK_MODEL_SOURCES.map((factory) => factory(ctx)),
    ];
    const pricing = loadPricingFile(config.pricingFile);
    const catalogue = new Catalogue(sources, config.pricingFile ? livePricingFile(config.pricingFile, pricing, config.log) : pricing, config.log, {
      maxUploadBytes: config.maxUploadBytes,
    });

    let url = `http://${config.host}:${config.port}`;
    const engine = createJobService({
      store,
      dataDir: config.dataDir,
      resolveModel: (id) => catalogue.resolveForJobs(id),
      ...(config.workers !== undefined ? { workers: config.workers } : {}),
      publicBaseUrl: () => url,
      runners: { remote: remote.jobRunner },
      workerLauncher: config.processLauncher,
      startWorkers: config.workerStart,
      idleWorkerExitMs: config.workerIdleExitMs,
    });
    const jobs = engine;
    opened.push(() => jobs.shutdown(0));

    const sessionKeys = new Map<string, KeyOwner>();
    const sessionKey = (accountName = LOCAL_ACCOUNT): string => {
      const key = `vdk_session_${randomBytes(24).toString('base64url')}`;
      sessionKeys.set(key, { accountId: accountName === LOCAL_ACCOUNT ? localAccountId : keys.ensureAccount(accountName), accountName, keyId: null });
      return key;
    };
    const closing = new AbortController();
    opened.push(() => closing.abort(new Error('the service failed to start')));
    const origins = new Origins(config.allowedOrigins);
    const limiter = new FailedAuthLimiter();
    const validator = new ParamsValidator();
    const transcripts = createTranscripts(store, store.clock);
    const exports = new ExportRenderer();
    opened.push(() => exports.close());
    const watch = new WatchService({
      store,
      jobs,
      accountId: localAccountId,
      submitter: createWatchSubmitter({ catalogue, validator, jobs, config, transcripts, exports }, localAccountId),
      timings: config.watchTimings,
      log: config.log,
    });
    const deps: AppDeps = {
      config,
      store,
      repos,
      durability,
      jobs,
      transcripts,
      exports,
      catalogue,
      models,
      remote,
      watch,
      validator,
      keys,
      origins,
      sessionKeys,
      limiter,
      uploadsDir,
      uploads: new UploadBudget(uploadsDir, { maxConcurrent: config.maxConcurrentUploads, maxStoredBytes: config.maxStoredUploadBytes }),
      closing: closing.signal,
    };
    const manager = models;
    const provider = remote;
    const browserLogin = config.serveUi ? new BrowserLogin(() => sessionKey()) : null;
    const app = buildApp(deps, { browserLogin });
    // Bodies left unread by an early answer are discarded by unread-body.ts, within bounds, not cut after 0.5 s.
    const server = createAdaptorServer({ fetch: app.fetch, autoCleanupIncoming: false }) as Server;
    allowWholeBodies(server);
    boundUnreadBodies(server, { maxBytes: config.maxUploadBytes, idleMs: config.bodyIdleTimeoutMs });
    const port = await listen(server, config.port, config.host);
    opened.push(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    );
    origins.setListening(config.host, port);
    url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    const jobService = jobs;
    const live = attachLiveServer(server, {
      authenticate: (key, address) => {
        const owner = sessionKeys.get(key) ?? keys.find(key);
        const limited = rateLimited(limiter, address, owner ? limiterKeyId(owner, key) : null);
        if (limited) throw limited;
        return owner?.accountId;
      },
      isKeyValid: (key) => sessionKeys.has(key) || keys.find(key) !== undefined,
      resolveModel: (id) => catalogue.resolveModel(id),
      pricingFor: (def) => catalogue.pricingFor(def),
      allowedOrigins: config.allowedOrigins,
      isOriginAllowed: (origin) => origins.isAllowed(origin),
      charge: (entry) => void store.repos.ledger.charge(entry).catch((error: Error) => config.log(`live: a charge could not be recorded: ${error.message}`)),
      recordDictation: (input) => jobService.recordDictation(input),
      followHostedDictation: (input) => jobService.followHostedDictation(input),
      hostedEndpoint: () => provider.settingsStore.endpoint(),
      reserveLive: (request) => jobService.reserveLive(request),
      recordings: { uploadsDir, openQuota: (accountId) => deps.uploads.openRecording(accountId) },
      durable: () => durability.flush(),
      dataDir: config.dataDir,
      log: config.log,
      launcher: config.processLauncher,
      options: config.live,
    });
    opened.push(() => live.close());
    keys.onRevoked(() => live.recheckKeys());
    await models.start();
    remote.start();
    await jobs.start();
    // The first request of a model would compile its params schema (and JSON Schema's own): done now, in the background.
    void validator.prepare(catalogue.definitions().filter((d) => d.status === 'available'), closing.signal);
    // And the first request would compile the HTTP stack's code: one request that stops at params validation does it,
    // once the service listens, and only while no job runs (a job that came during start-up has compiled that code
    // itself). No worker is started for it: workers start with the first job (config.workerStart).
    const warmUp = new Promise<void>((resolve) => setImmediate(resolve)).then((): WarmUpResult | Promise<WarmUpResult> => {
      const stats = engine.workerStats();
      if (closing.signal.aborted || stats.idle < stats.size) return { status: 0, code: null };
      const key = sessionKey();
      return warmUpHttp({ host: config.host, port, key, release: () => sessionKeys.delete(key), modelId: ESPEAK_MODEL_ID, signal: closing.signal });
    });
    const watchFolders = watch;
    opened.push(() => watchFolders.stop());
    await watchFolders.start();

    let closed: Promise<void> | null = null;
    const close = (graceMs = DEFAULT_SHUTDOWN_GRACE_MS): Promise<void> =>
      (closed ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        closing.abort(new Error('the service is shutting down'));
        server.closeIdleConnections();
        await warmUp;
        // First: no file becomes a job while the job engine stops; exports being written are finished.
        await watchFolders.stop();
        await exports.close();
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

    const browserLoginUrl = (): string | null => (browserLogin ? `${url}/#token=${browserLogin.issue()}` : null);
    return { url, port, app, jobs, catalogue, db, store, repos, keys, config, server, models: manager, remote: provider, live, watch: watchFolders, warmUp, sessionKey, browserLoginUrl, close };
  } catch (error) {
    for (const undo of opened.reverse()) await Promise.resolve().then(undo).catch(() => undefined);
    throw error;
  }
}
