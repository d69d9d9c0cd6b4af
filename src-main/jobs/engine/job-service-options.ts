/** Options of createJobService, with every default in one place. */
import { availableParallelism } from 'node:os';
import type { Clock } from '../../store/clock.js';
import type { Store } from '../../store/store.js';
import type { EngineKind } from '../../engines/engine-types.js';
import type { ModelDefinition } from '../../engines/model-definition.js';
import { forkLauncher, type ProcessLauncher } from '../../engines/worker/process-launcher.js';
import type { WorkerPool } from '../../engines/worker/worker-pool.js';
import { CHEAP_TASK_MS } from '../../engines/worker/engine-run-times.js';
import type { Runners } from './job-runner.js';
import { folderFiles, type StoredFiles } from '../../store/objects/stored-files.js';
import type { Log } from '../../common/log.js';
import { createLog } from '../../common/log.js';
import { textSink } from '../../common/log-sinks.js';

export interface JobServiceOptions {
  /** The store, built once by the caller; its clock is the job engine's time source. */
  store: Store;
  /**
   * The service's one logger (ServiceConfig.log: text or JSON lines): what went wrong in the engine's background work
   * (a failed pass, a lost lease, a checkpoint refused). Default: a process warning.
   */
  log?: Log;
  /** Artifacts go to dataDir/artifacts/<job>/, worker logs to dataDir/logs/. */
  dataDir: string;
  /**
   * Where uploads, recordings and artifacts are stored and read (store/objects/stored-files.ts): input files are
   * kept there when a job is accepted and fetched by the node that runs it; artifacts are kept there when a job
   * succeeds; retention deletes through it. Default: the folder dataDir, rows naming files by their paths.
   */
  files?: StoredFiles;
  /** The catalogue: the current definition of a model (status, downloading, engine, pricing). */
  resolveModel(modelId: string): ModelDefinition | undefined;
  /**
   * Looks for model changes another process or node committed (the model manager's refresh). A job whose model this
   * process does not know is placed again after one such look before it fails: in a cluster, a model imported through
   * an API node reaches a worker's catalogue only when that worker looks. Default: nothing to look for.
   */
  refreshModels?: () => Promise<unknown>;
  /**
   * Makes a model's files present on this node before a run (object storage: a package installed through another
   * node is fetched from the bucket on its first use here). Default: nothing to do (the files are where rows say).
   */
  prepareModel?: (definition: ModelDefinition) => Promise<void>;
  /**
   * Worker processes. Default: max(1, min(4, availableParallelism() - 1)) — one core is left to the service, the UI
   * and live speech, which must stay responsive while a long transcription runs.
   */
  workers?: number;
  /** How long a job may wait queued before it is `expired`. Default 7 days: the desktop queue survives offline nights. */
  queueWindowSeconds?: number;
  /** An engine run longer than this is killed and the job fails `engine_timeout`. Default 6 h (a 2-hour file on a slow laptop). */
  runTimeoutSeconds?: number;
  /** How long artifact links live (default 86 400 s, one day, docs/design.md §3). */
  artifactTtlSeconds?: number;
  /**
   * How long an uploaded recording is kept after its job ends. Default null: as long as the job, so a transcript can
   * play its quotes for as long as it exists (Settings shows the disk the recordings take, and the person can choose
   * fewer hours). Only a fallback: the user's `recordings_hours` in the settings table (retention-policy.ts, PUT
   * /v1/settings/retention) wins when stored.
   */
  uploadRetentionSeconds?: number | null;
  /** `http://127.0.0.1:PORT`, known only after listen; artifact URLs are computed when read. Default `http://127.0.0.1`. */
  publicBaseUrl?: () => string;
  /** Runners for non-local engines (default: none, so remote models fail `model_unavailable`). */
  runners?: Runners;
  /** How long a cancelled job may take to stop before its worker is killed (default 3000 ms). */
  cancelGraceMs?: number;
  /** How often the queue is looked at besides on every change (default 1000 ms: remote readiness, other instances). */
  schedulerIntervalMs?: number;
  /** How often expiry, artifact/recording/job-history retention and idempotency purge run (default 60 000 ms). */
  maintenanceIntervalMs?: number;
  /** shutdown() default grace for running jobs (default 10 000 ms). */
  shutdownGraceMs?: number;
  /** Environment of worker processes (default: this process's). */
  workerEnv?: NodeJS.ProcessEnv;
  /** Starts worker processes (default child_process.fork; the Electron app passes its utilityProcess launcher). */
  workerLauncher?: ProcessLauncher;
  /**
   * Engines every worker loads and warms when it starts, so the first job on them runs at warm speed. Default
   * `['espeak']`: the built-in voice, a few MB of WebAssembly per worker. Model-sized engines (sherpa-onnx, the
   * denoisers, PocketSphinx) load on their first job and are then kept by the worker.
   */
  warmEngines?: EngineKind[];
  /**
   * When worker processes run: `eager` starts them all with the job engine (the first job never waits for one);
   * `on-demand` starts one when a job needs it (engines/worker/worker-pool.ts). Default 'eager'; the service passes
   * 'on-demand' so that an idle service costs little memory (docs/job-engine.md).
   */
  startWorkers?: 'eager' | 'on-demand';
  /** A worker with nothing to do for this long exits; the next job starts it again. Default Infinity: never. */
  idleWorkerExitMs?: number;
  /**
   * Engine kinds whose runs have averaged less than this are cheap: their tasks may wait in a busy worker's line
   * (engines/worker/engine-run-times.ts). Default CHEAP_TASK_MS (25 ms); tests raise it to make the test engine cheap.
   */
  cheapTaskMs?: number;
  /**
   * Longest the library search rows of finished transcriptions wait while runs are under way (default 10 000 ms):
   * the timer writes them as soon as no run is active, and at least this often while some are (a search catches
   * the index up first either way, so it never misses a finished transcript).
   */
  searchIndexDelayMs?: number;
  /**
   * Run on this worker pool instead of starting one: it is neither started nor stopped by this job engine (a second
   * job engine sharing another's workers). Default: a pool of its own, built from the options above.
   */
  pool?: WorkerPool;
  /**
   * How long a claim on a running job lasts without renewal (default 60 s): the instance renews it every third of
   * that while the job runs; a job whose lease lapsed (its node died, or lost the database for longer) goes back to
   * the queue and continues after its last checkpoint wherever it is claimed next.
   */
  leaseSeconds?: number;
  /**
   * Whether this instance claims queued jobs and runs them (default true). A cluster's API nodes run none unless
   * given workers (`voxdesk serve --workers N`); `voxdesk worker` nodes only run jobs.
   */
  runsJobs?: boolean;
}

export type ResolvedOptions = Required<Omit<JobServiceOptions, 'workerEnv' | 'pool'>> & { workerEnv: NodeJS.ProcessEnv; clock: Clock };

/** Default lease of a running job, and how often it is renewed (a third of it). */
export const DEFAULT_LEASE_SECONDS = 60;

export function defaultWorkerCount(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`job service option ${name} must be a positive number, got ${value}`);
  return value;
}

export function resolveOptions(options: JobServiceOptions): ResolvedOptions {
  const workers = positive('workers', options.workers, defaultWorkerCount());
  if (!Number.isInteger(workers)) throw new Error(`job service option workers must be an integer, got ${workers}`);
  return {
    store: options.store,
    dataDir: options.dataDir,
    files: options.files ?? folderFiles(options.dataDir),
    resolveModel: options.resolveModel,
    refreshModels: options.refreshModels ?? (async () => undefined),
    prepareModel: options.prepareModel ?? (async () => undefined),
    workers,
    queueWindowSeconds: positive('queueWindowSeconds', options.queueWindowSeconds, 7 * 24 * 3600),
    runTimeoutSeconds: positive('runTimeoutSeconds', options.runTimeoutSeconds, 6 * 3600),
    artifactTtlSeconds: positive('artifactTtlSeconds', options.artifactTtlSeconds, 86_400),
    uploadRetentionSeconds: options.uploadRetentionSeconds === null || options.uploadRetentionSeconds === undefined ? null : positive('uploadRetentionSeconds', options.uploadRetentionSeconds, 86_400),
    publicBaseUrl: options.publicBaseUrl ?? (() => 'http://127.0.0.1'),
    clock: options.store.clock,
    runners: options.runners ?? {},
    cancelGraceMs: positive('cancelGraceMs', options.cancelGraceMs, 3000),
    schedulerIntervalMs: positive('schedulerIntervalMs', options.schedulerIntervalMs, 1000),
    maintenanceIntervalMs: positive('maintenanceIntervalMs', options.maintenanceIntervalMs, 60_000),
    shutdownGraceMs: options.shutdownGraceMs ?? 10_000,
    workerEnv: options.workerEnv ?? process.env,
    workerLauncher: options.workerLauncher ?? forkLauncher,
    warmEngines: options.warmEngines ?? ['espeak'],
    cheapTaskMs: positive('cheapTaskMs', options.cheapTaskMs, CHEAP_TASK_MS),
    startWorkers: options.startWorkers ?? 'eager',
    idleWorkerExitMs: positive('idleWorkerExitMs', options.idleWorkerExitMs, Infinity),
    searchIndexDelayMs: positive('searchIndexDelayMs', options.searchIndexDelayMs, 10_000),
    leaseSeconds: positive('leaseSeconds', options.leaseSeconds, DEFAULT_LEASE_SECONDS),
    runsJobs: options.runsJobs ?? true,
    log: options.log ?? createLog(textSink()),
  };
}
