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
import type { ModelManager } from '../models/model-manager.js';
import { ApiError } from '../common/errors.js';
import { ESPEAK_MODEL_ID } from '../engines/tts/espeak-models.js';
import type { RemoteProvider } from '../remote/remote-provider.js';
import type { JobService } from '../jobs/engine/job-service-types.js';
import type { Db } from '../store/database.js';
import type { Repositories } from '../store/repositories.js';
import type { Store } from '../store/store.js';
import { savedDesignedVoice } from './voices/saved-voices.js';
import { liveClonedVoice } from './voices/saved-voice-live.js';
import { ownWatchFolders } from '../watch/watch-folder-owner.js';
import { WatchService } from '../watch/watch-service.js';
import type { AppDeps } from './app-deps.js';
import { buildApp, type AppEnv } from './app.js';
import type { ApiKeys, KeyOwner } from './auth/api-keys.js';
import { authenticationOf } from './auth/auth-middleware.js';
import { BrowserLogin } from './auth/browser-login.js';
import { FailedAuthLimiter } from './auth/failed-auth-limiter.js';
import { Origins } from './auth/origins.js';
import type { Catalogue } from './catalogue/catalogue.js';
import { boundUnreadBodies } from './http/unread-body.js';
import { allowWholeBodies } from './http/body-idle-timeout.js';
import { LOCAL_ACCOUNT, resolveConfig, type ServiceConfig } from './config.js';
import { attachLiveServer, type LiveServer } from './live/live-server.js';
import { ParamsValidator } from './params/params-validator.js';
import { sweepAbandonedUploadsEvery } from './uploads/abandoned-uploads.js';
import { UploadBudget } from './uploads/upload-budget.js';
import { createEngineParts } from './engine-parts.js';
import { createNodeMetrics } from './ops/metrics.js';
import { warmUpHttp, type WarmUpResult } from './start-up-warm-up.js';
import { createWatchSubmitter } from './watch-folders/watch-submitter.js';
import { ExportRenderer } from './exports/export-renderer.js';
import { CaptureService } from './capture/capture-service.js';
import { attachCaptureSocket } from './capture/capture-socket.js';
import { knownSpeakers } from '../jobs/transcripts/speaker-library.js';

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
  /**
   * The node's own SQLite file's synchronous repositories (open-store.ts): without a database URL the whole store,
   * for tests that look into the file; on PostgreSQL the hosted provider's state and the secrets.
   */
  readonly repos: Repositories;
  readonly keys: ApiKeys;
  readonly config: ServiceConfig;
  readonly server: Server;
  readonly models: ModelManager;
  readonly remote: RemoteProvider;
  readonly live: LiveServer;
  /** Meeting capture (the local account's: /v1/captures and its socket). */
  readonly captures: CaptureService;
  /** The watch folders (started with the service, stopped first when it closes). */
  readonly watch: WatchService;
  /** The start-up warm-up request's answer (start-up-warm-up.ts); nothing waits for it. */
  readonly warmUp: Promise<WarmUpResult>;
  /** A key of the local account valid until this process stops: the CLI and the browser UI. */
  sessionKey(): string;
  /**
   * Browser mode only (serveUi): the UI's address with a fresh one-time login token, `URL/#token=…` (the previous
   * token stops working). Null without serveUi.
   */
  browserLoginUrl(): string | null;
  /** Graceful shutdown; resolves once the database is closed. Safe to call twice. */
  close(graceMs?: number): Promise<void>;
}

/** How often the node that watches a cluster's folders reads their saved list again (another node may have saved it). */
const WATCH_SETTINGS_FOLLOW_MS = 5000;

/** How long close() waits for running jobs before they are requeued. Default 10 s (the job engine's own default). */
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

/** The service's own address as a client on this machine reaches it: a wildcard host is asked on loopback. */
function loopbackUrl(url: string): string {
  return url.replace(/^http:\/\/(0\.0\.0\.0|\[::\])(?=:)/, 'http://127.0.0.1');
}

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
  // What a failed start must close, in the order it was opened (undone in reverse): a failure after listening used
  // to leave the port taken and the live server, the workers' start and the background compiles behind.
  const opened: (() => unknown)[] = [];
  try {
    let url = `http://${config.host}:${config.port}`;
    const parts = await createEngineParts(config, opened, () => url);
    const { keys, localAccountId, models, remote, catalogue, uploadsDir } = parts;
    const { store, db, durability } = parts.opened;
    const repos = parts.opened.local;
    const engine = parts.jobs;
    const jobs = engine;

    const sessionKeys = new Map<string, KeyOwner>();
    const sessionKey = (): string => {
      const key = `vdk_session_${randomBytes(24).toString('base64url')}`;
      sessionKeys.set(key, { accountId: localAccountId, accountName: LOCAL_ACCOUNT, keyId: null });
      return key;
    };
    const closing = new AbortController();
    opened.push(() => closing.abort(new Error('the service failed to start')));
    const origins = new Origins(config.allowedOrigins);
    const limiter = new FailedAuthLimiter();
    const validator = new ParamsValidator();
    const transcripts = parts.transcripts;
    const exports = new ExportRenderer();
    opened.push(() => exports.close());
    const watch = new WatchService({
      store,
      jobs,
      accountId: localAccountId,
      submitter: createWatchSubmitter({ catalogue, validator, jobs, config, transcripts, exports }, localAccountId),
      timings: config.watchTimings,
      log: config.log.child('watch'),
    });
    const uploads = new UploadBudget(uploadsDir, { maxConcurrent: config.maxConcurrentUploads, maxStoredBytes: config.maxStoredUploadBytes });
    const abandonedUploads = sweepAbandonedUploadsEvery(uploadsDir, config.log.child('uploads'));
    opened.push(() => abandonedUploads.stop());
    // The live server starts once the service listens; capture reaches its recognizers through it.
    let liveServer: LiveServer | null = null;
    const liveNow = (): LiveServer => {
      if (!liveServer) throw new ApiError('internal_error', 'the service is starting: try again in a moment');
      return liveServer;
    };
    const captures = new CaptureService({
      liveRecognizer: (modelId) => liveNow().liveRecognizer(modelId),
      takeDictationSlot: (accountId) => liveNow().takeDictationSlot(accountId),
      uploadsDir,
      openQuota: (accountId) => uploads.openRecording(accountId),
      recordJob: (input) => jobs.recordDictation(input),
      durable: () => durability.flush(),
      log: config.log.child('capture'),
      options: config.capture,
      // The other side's voices, told apart with the diarization models ordinary jobs use, when both are installed.
      speakers: {
        models: () => {
          const segmentation = models.supportModelPath('pyannote-segmentation');
          const embedding = models.supportModelPath('speaker-embedding');
          return segmentation && embedding ? { segmentation, embedding } : null;
        },
        knownSpeakers: (accountId) => knownSpeakers(store.repos, accountId),
        launcher: config.processLauncher,
      },
    });
    const metrics = createNodeMetrics({ store, jobs: engine, role: config.role, node: parts.nodeId });
    opened.push(() => metrics.stop());
    const deps: AppDeps = {
      config,
      store,
      nodeId: parts.nodeId,
      metrics,
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
      files: parts.files,
      uploads,
      captures,
      languageModel: parts.languageModel,
      selfUrl: () => loopbackUrl(url),
      closing: closing.signal,
    };
    const manager = models;
    const provider = remote;
    const browserLogin = config.serveUi ? new BrowserLogin(() => sessionKey()) : null;
    const app = buildApp(deps, { browserLogin });
    // Bodies left unread by an early answer are discarded by unread-body.ts, within bounds, not cut after 0.5 s.
    const server = createAdaptorServer({ fetch: app.fetch, autoCleanupIncoming: false }) as Server;
    allowWholeBodies(server);
    metrics.watch(server);
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
    // The one key check, for the HTTP routes (app.ts) and the live and capture sockets alike.
    const authentication = authenticationOf(deps);
    const live = attachLiveServer(server, {
      authentication,
      isKeyValid: async (key) => sessionKeys.has(key) || (await keys.find(key)) !== undefined,
      resolveModel: (id) => catalogue.resolveModel(id),
      lookElsewhere: async () => {
        await models.refresh();
        await provider.othersCommitted();
      },
      ...(parts.prepareModel ? { prepareModel: parts.prepareModel } : {}),
      pricingFor: (def) => catalogue.pricingFor(def),
      charge: (entry) => void store.repos.ledger.charge(entry).catch((error: Error) => config.log.info(`live: a charge could not be recorded: ${error.message}`)),
      recordDictation: (input) => jobService.recordDictation(input),
      followHostedDictation: (input) => jobService.followHostedDictation(input),
      hostedEndpoint: () => provider.settingsStore.endpoint(),
      reserveLive: (request) => jobService.reserveLive(request),
      recordings: { uploadsDir, openQuota: (accountId) => deps.uploads.openRecording(accountId) },
      durable: () => durability.flush(),
      dataDir: config.dataDir,
      designedVoice: (accountId, model, voice) => savedDesignedVoice(store, accountId, model, voice),
      clonedVoice: (accountId, model, voice) => liveClonedVoice({ store, uploadsDir, files: parts.files }, accountId, model, voice),
      log: config.log.child('live'),
      launcher: config.processLauncher,
      options: config.live,
    });
    opened.push(() => live.close());
    liveServer = live;
    keys.onRevoked(() => live.recheckKeys());
    const captureSocket = attachCaptureSocket(server, {
      captures,
      localAccountId,
      authentication,
      log: config.log.child('capture'),
    });
    opened.push(() => captureSocket.close());
    // Captures an earlier run left unfinished (a crash, a kill -9) are found before any new one can start, and become
    // their jobs in the background (diarizing a long meeting's other side takes minutes).
    void captures.recover();
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
    // In a cluster one API node at a time watches the folders (watch/watch-folder-owner.ts).
    const watchOwnership = ownWatchFolders(store, watchFolders, { followMs: store.dialect === 'sqlite' ? null : WATCH_SETTINGS_FOLLOW_MS, log: config.log.child('watch') });
    opened.push(() => watchOwnership.release());
    await watchOwnership.ready;

    let closed: Promise<void> | null = null;
    const close = (graceMs = DEFAULT_SHUTDOWN_GRACE_MS): Promise<void> =>
      (closed ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        closing.abort(new Error('the service is shutting down'));
        server.closeIdleConnections();
        await warmUp;
        // First: no file becomes a job while the job engine stops; exports being written are finished.
        await watchOwnership.release();
        await watchFolders.stop();
        await exports.close();
        // Running captures end as if stopped (their jobs are recorded) while the recognizers still run.
        await captures.close();
        captureSocket.close();
        await live.close();
        await Promise.all([jobService.shutdown(graceMs), manager.stop()]);
        // After the job engine: a running AI clean-up saves its revision through it during the grace period.
        await transcripts.close();
        // After the job engine: forwarded items may finish during its grace period.
        provider.stop();
        // Held POSTs were released above; whatever is still open after the jobs stopped is cut.
        const timer = setTimeout(() => server.closeAllConnections(), 2000);
        await stopped;
        clearTimeout(timer);
        abandonedUploads.stop();
        await parts.opened.close();
      })());

    const browserLoginUrl = (): string | null => (browserLogin ? `${url}/#token=${browserLogin.issue()}` : null);
    return { url, port, app, jobs, catalogue, db, store, repos, keys, config, server, models: manager, remote: provider, live, captures, watch: watchFolders, warmUp, sessionKey, browserLoginUrl, close };
  } catch (error) {
    for (const undo of opened.reverse()) await Promise.resolve().then(undo).catch(() => undefined);
    throw error;
  }
}
