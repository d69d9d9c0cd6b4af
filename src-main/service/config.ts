/**
 * Every option of the HTTP service, each with its default, in one place (docs/design.md §6.7). The CLI, the Electron
 * shell and tests pass a partial config; resolveConfig fills in the rest.
 */
import { builtInModelsWanted } from '../models/packages/built-in-models.js';
import type { LiveOptions } from './live/live-options.js';
import type { CaptureOptions } from './capture/capture-options.js';
import envPaths from 'env-paths';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MAX_FILE_BYTES } from '../common/limits.js';
import type { ModelSourceFactory } from '../engines/model-sources.js';
import type { ModelPackage } from '../models/packages/curated-models.js';
import { readCaFile } from '../models/downloads/download-network.js';
import { normaliseMirror } from '../models/downloads/download-source.js';
import { forkLauncher, type ProcessLauncher } from '../engines/worker/process-launcher.js';
import { normaliseRemoteUrl } from '../remote/remote-settings-store.js';
import { MIN_API_KEY_LENGTH } from '../store/accounts-repo.js';
import { SECRET_STORE_MODES, type SecretStoreMode } from '../store/secrets/open-secret-store.js';
import type { SecretCipher } from '../store/secrets/secret-cipher.js';
import type { S3Location } from '../store/objects/storage-location.js';
import { DEFAULT_BODY_IDLE_MS } from './http/body-idle-timeout.js';
import type { WatchTimings } from '../watch/watch-folder-config.js';
import { DEFAULT_MAX_CONCURRENT_UPLOADS, DEFAULT_MAX_STORED_UPLOAD_BYTES } from './uploads/upload-budget.js';
import type { Log } from '../common/log.js';
import { createLog } from '../common/log.js';
import { textSink } from '../common/log-sinks.js';

export interface ServiceConfig {
  /** Interface to listen on. Default 127.0.0.1 (loopback only: the service is personal). */
  host: string;
  /** TCP port; 0 picks a free ephemeral port. Default 8750. */
  port: number;
  /** Database, uploads, artifacts and models live here. Default: $VOXDESK_DATA_DIR, else the OS per-user data dir. */
  dataDir: string;
  /**
   * The shared PostgreSQL database of a cluster (`--database`, $VOXDESK_DATABASE_URL: read by the CLI only, so the
   * desktop app never changes). Default null: the SQLite file in the data dir (service/open-store.ts).
   */
  databaseUrl: string | null;
  /**
   * Where uploads, recordings, artifacts and models are kept: a folder every node of a cluster mounts (`--storage`).
   * Default: the data dir. The data dir keeps what is the node's own (its SQLite file, the sealed-secrets key).
   */
  storageDir: string;
  /**
   * An S3-compatible bucket instead of a storage folder (`--storage s3://…`): every node keeps a bounded cache of it
   * in its own data dir (`storageDir` is then that cache; store/objects/s3-files.ts). Default null: a folder.
   */
  objectStorage: { location: S3Location; cacheBytes: number } | null;
  /**
   * What this process is: `standalone` (the desktop app, a plain `voxdesk serve`: API and jobs on one SQLite file),
   * `serve` (a cluster's API node) or `worker` (a cluster's engine node, no API). Shown by /v1/health and /metrics.
   */
  role: ServiceRole;
  /**
   * Whether this process claims queued jobs and runs them. Default true; a cluster's API node runs none unless given
   * `--workers N` (the CLI decides).
   */
  runsJobs: boolean;
  /** How long a claim on a running job lasts without renewal (the job engine's leaseSeconds). Default 60 s. */
  leaseSeconds: number | undefined;
  /** How long a single-item POST holds the connection waiting for a terminal job. Default 240 s (spec: 4 minutes). */
  holdSeconds: number;
  /**
   * Largest accepted upload per file, in bytes, inclusive. Default MAX_FILE_BYTES = 499,999,999 (spec: "under 500 MB",
   * common/limits.ts); a model's limit may be lower. The catalogue's limits.max_file_bytes reports the smaller of the two.
   */
  maxUploadBytes: number;
  /** A request body that sends nothing this long is cut with 408 (http/body-idle-timeout.ts). Default 30 s. */
  bodyIdleTimeoutMs: number;
  /** Uploads one account may run at once; more → 429 too_many_uploads. Default 4 (uploads/upload-budget.ts). */
  maxConcurrentUploads: number;
  /** Bytes of uploaded recordings one account may keep on disk; more → 507 upload_quota_exceeded. Default 50 GiB. */
  maxStoredUploadBytes: number;
  /**
   * An answer that acknowledges a change waits until it is on disk (one fsync shared by the answers waiting then:
   * store/durability.ts), so it survives a power cut. Default true; false only to measure what that costs
   * (bench/durable-answers.ts) — a crash or a kill loses nothing either way.
   */
  durableAnswers: boolean;
  /** Operator prices (JSON). Default: dataDir/pricing.json when that file exists, else none (on-device is free). */
  pricingFile: string | null;
  /** Worker processes running engines. Default: undefined = the job engine's own default. */
  workers: number | undefined;
  /** Origins allowed by CORS, e.g. a dev renderer. Default []: only the service's own origin. */
  allowedOrigins: string[];
  /** Directory of the built renderer served at `/`. Default null: no UI (API only). */
  serveUi: string | null;
  /**
   * Who may use the MCP endpoint `/mcp` (docs/mcp.md): the local account only (default), or every account
   * (`voxdesk serve --mcp-all-accounts`), each through its own key.
   */
  mcpForAllAccounts: boolean;
  /**
   * A key to register for the local account (VOXDESK_API_KEY), at least 24 characters (MIN_API_KEY_LENGTH); a key
   * revoked with `voxdesk keys revoke` is refused. Default: $VOXDESK_API_KEY or none.
   */
  apiKey: string | null;
  /** The name `keys list` shows for apiKey. Default 'VOXDESK_API_KEY' (the desktop app says 'desktop app'). */
  apiKeyName: string;
  /**
   * Hosted service to forward remote models to (`voxdesk serve --remote-url URL`; its key comes from
   * $VOXDESK_REMOTE_KEY). Stored in the remote settings when given. Default null: $VOXDESK_REMOTE_URL when set,
   * else whatever Settings hold.
   */
  remoteUrl: string | null;
  /**
   * Where secrets (the hosted key) are sealed when no `secretCipher` is given: `auto` (the OS keyring when one
   * answers, else a 0600 key file in the data dir), `keyring` (required: start-up fails without one) or `key-file`.
   * Default: $VOXDESK_SECRET_STORE, else `auto`.
   */
  secretStore: SecretStoreMode;
  /** The desktop app's cipher (Electron safeStorage, app/safe-storage-cipher.ts); wins over secretStore. Default null. */
  secretCipher: SecretCipher | null;
  /**
   * A cluster's sealing key for the secrets in its database (the hosted key): 32 bytes in base64 or hex, the same on
   * every node (store/secrets/cluster-key-cipher.ts). Read only with a `databaseUrl`; a single machine seals with
   * `secretStore` / `secretCipher` as always. Default: $VOXDESK_SECRETS_KEY, else null (the node stores no hosted key).
   */
  secretsKey: string | null;
  /** Extra catalogue sources (tests register the job engine's test engine models). Default []. */
  extraModelSources: ModelSourceFactory[];
  /** Packages the model manager offers for download. Default null: the curated list (tests offer tiny packages). */
  modelPackages: readonly ModelPackage[] | null;
  /**
   * The models shipped in resources/models (Silero VAD) count as installed (models/packages/built-in-models.ts).
   * Default true, unless $VOXDESK_BUILT_IN_MODELS is `off` (tests that pin what recognizers do without a VAD).
   */
  builtInModels: boolean;
  /**
   * Base URL that curated model files are downloaded from instead of their upstream hosts (`--model-mirror`; forms
   * in models/downloads/download-source.ts). Stored as the `models.mirror` setting when given, like --remote-url.
   * Default null: the setting as it is (else $VOXDESK_MODEL_MIRROR, else the upstream URLs).
   */
  modelMirror: string | null;
  /**
   * PEM file of extra CAs trusted for model downloads (`--ca-file`; a TLS-inspecting corporate proxy). Stored as
   * the `models.ca_file` setting when given. Default null: the setting as it is (else $VOXDESK_CA_FILE).
   */
  caFile: string | null;
  /**
   * When engine worker processes run: `on-demand` (default) starts one when a job needs it, so an idle service (a
   * desktop app in the tray) holds no worker; `eager` starts them all with the service.
   */
  workerStart: 'eager' | 'on-demand';
  /**
   * A worker with nothing to do for this long exits, giving its memory back (the engines it loaded: a neural
   * recognizer is hundreds of MB); the next job starts one again. Default 300 000 ms (5 min).
   */
  workerIdleExitMs: number;
  /** Logger for unexpected errors and lifecycle lines; never stdout (the first stdout line is a contract). */
  log: Log;
  /**
   * Starts the engine worker and live voice processes. Default child_process.fork; the Electron app passes
   * Electron's utilityProcess (its packaged build cannot run itself as Node).
   */
  processLauncher: ProcessLauncher;
  /** Overrides of the live WebSockets' options (service/live/live-options.ts has each default). Default none. */
  live: Partial<LiveOptions>;
  /** Overrides of meeting capture's options (service/capture/capture-options.ts has each default). Default none. */
  capture: Partial<CaptureOptions>;
  /** Watch-folder timings (stability, health checks, retries). Default {}: DEFAULT_WATCH_TIMINGS (watch/watch-folder-config.ts). */
  watchTimings: Partial<WatchTimings>;
  /**
   * Per-request timeouts of language-model actions (remote/language-model/language-model-client.ts): no answer
   * within connectTimeoutMs (default 60 s), or silence within a streamed answer past idleTimeoutMs (default 300 s),
   * fails the job language_model_unreachable. Default {}: those defaults.
   */
  languageModelTimeouts: { connectTimeoutMs?: number; idleTimeoutMs?: number };
}

export type ServiceRole = 'standalone' | 'serve' | 'worker';

export const DEFAULT_PORT = 8750;
/** See ServiceConfig.workerIdleExitMs. */
export const DEFAULT_WORKER_IDLE_EXIT_MS = 300_000;
export const DEFAULT_HOLD_SECONDS = 240;
export const DEFAULT_MAX_UPLOAD_BYTES = MAX_FILE_BYTES;
/** Name of the account that owns the local machine's keys (CLI, desktop app, browser UI bootstrap). */
export const LOCAL_ACCOUNT = 'local';

/** With object storage, the node's cache of the bucket: this folder of its data dir (mirroring the keys). */
export const STORAGE_CACHE_FOLDER = 'storage-cache';

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.VOXDESK_DATA_DIR) return resolve(env.VOXDESK_DATA_DIR);
  return envPaths('voxdesk', { suffix: '' }).data;
}

export function resolveConfig(partial: Partial<ServiceConfig> = {}, env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const dataDir = resolve(partial.dataDir ?? defaultDataDir(env));
  const defaultPricing = join(dataDir, 'pricing.json');
  const config: ServiceConfig = {
    host: partial.host ?? '127.0.0.1',
    port: partial.port ?? DEFAULT_PORT,
    dataDir,
    databaseUrl: partial.databaseUrl ?? null,
    storageDir: partial.objectStorage ? join(dataDir, STORAGE_CACHE_FOLDER) : partial.storageDir ? resolve(partial.storageDir) : dataDir,
    objectStorage: partial.objectStorage ?? null,
    role: partial.role ?? 'standalone',
    runsJobs: partial.runsJobs ?? true,
    leaseSeconds: partial.leaseSeconds,
    holdSeconds: partial.holdSeconds ?? DEFAULT_HOLD_SECONDS,
    maxUploadBytes: partial.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES,
    bodyIdleTimeoutMs: partial.bodyIdleTimeoutMs ?? DEFAULT_BODY_IDLE_MS,
    maxConcurrentUploads: partial.maxConcurrentUploads ?? DEFAULT_MAX_CONCURRENT_UPLOADS,
    maxStoredUploadBytes: partial.maxStoredUploadBytes ?? DEFAULT_MAX_STORED_UPLOAD_BYTES,
    durableAnswers: partial.durableAnswers ?? true,
    pricingFile: partial.pricingFile !== undefined ? partial.pricingFile : existsSync(defaultPricing) ? defaultPricing : null,
    workers: partial.workers,
    allowedOrigins: partial.allowedOrigins ?? [],
    serveUi: partial.serveUi ? resolve(partial.serveUi) : null,
    mcpForAllAccounts: partial.mcpForAllAccounts ?? false,
    apiKey: partial.apiKey !== undefined ? partial.apiKey : (env.VOXDESK_API_KEY || null),
    apiKeyName: partial.apiKeyName ?? 'VOXDESK_API_KEY',
    remoteUrl: partial.remoteUrl ? remoteUrlOf(partial.remoteUrl) : null,
    secretStore: partial.secretStore ?? secretStoreOf(env.VOXDESK_SECRET_STORE),
    secretCipher: partial.secretCipher ?? null,
    secretsKey: partial.secretsKey !== undefined ? partial.secretsKey : (env.VOXDESK_SECRETS_KEY || null),
    extraModelSources: partial.extraModelSources ?? [],
    modelPackages: partial.modelPackages ?? null,
    builtInModels: partial.builtInModels ?? builtInModelsWanted(env),
    workerStart: partial.workerStart ?? 'on-demand',
    workerIdleExitMs: partial.workerIdleExitMs ?? DEFAULT_WORKER_IDLE_EXIT_MS,
    modelMirror: partial.modelMirror ? checked(() => normaliseMirror(partial.modelMirror!), '--model-mirror') : null,
    caFile: partial.caFile ? checked(() => caFileOf(partial.caFile!), '--ca-file') : null,
    log: partial.log ?? createLog(textSink()),
    processLauncher: partial.processLauncher ?? forkLauncher,
    live: partial.live ?? {},
    capture: partial.capture ?? {},
    watchTimings: partial.watchTimings ?? {},
    languageModelTimeouts: partial.languageModelTimeouts ?? {},
  };
  validateConfig(config);
  return config;
}

function checked(fn: () => string, flag: string): string {
  try {
    return fn();
  } catch (error) {
    throw new Error(`invalid service configuration: ${flag}: ${(error as Error).message}`);
  }
}

function caFileOf(path: string): string {
  const absolute = resolve(path);
  readCaFile(absolute);
  return absolute;
}

function secretStoreOf(value: string | undefined): SecretStoreMode {
  if (!value) return 'auto';
  if (!(SECRET_STORE_MODES as readonly string[]).includes(value)) {
    throw new Error(`invalid service configuration: VOXDESK_SECRET_STORE must be one of ${SECRET_STORE_MODES.join(', ')}, got ${value}`);
  }
  return value as SecretStoreMode;
}

function remoteUrlOf(input: string): string {
  try {
    return normaliseRemoteUrl(input);
  } catch (error) {
    throw new Error(`invalid service configuration: --remote-url ${(error as Error).message}`);
  }
}

function validateConfig(config: ServiceConfig): void {
  const problems: string[] = [];
  if (!Number.isInteger(config.port) || config.port < 0 || config.port > 65535) problems.push(`port ${config.port} is not 0..65535`);
  if (!(config.holdSeconds >= 0) || !Number.isFinite(config.holdSeconds)) problems.push(`holdSeconds ${config.holdSeconds} is not a number ≥ 0`);
  if (!Number.isInteger(config.maxUploadBytes) || config.maxUploadBytes <= 0) problems.push('maxUploadBytes must be a positive integer');
  if (!(config.bodyIdleTimeoutMs > 0)) problems.push('bodyIdleTimeoutMs must be a positive number of milliseconds');
  if (!Number.isInteger(config.maxConcurrentUploads) || config.maxConcurrentUploads < 1) problems.push('maxConcurrentUploads must be an integer ≥ 1');
  if (!(config.maxStoredUploadBytes > 0)) problems.push('maxStoredUploadBytes must be a positive number of bytes');
  if (config.workers !== undefined && (!Number.isInteger(config.workers) || config.workers < 1)) problems.push(`workers ${config.workers} must be an integer ≥ 1`);
  if (config.leaseSeconds !== undefined && !(config.leaseSeconds > 0)) problems.push(`leaseSeconds ${config.leaseSeconds} must be a positive number`);
  if (config.serveUi && !existsSync(join(config.serveUi, 'index.html'))) problems.push(`--ui directory ${config.serveUi} has no index.html (run npm run build:renderer)`);
  if (config.pricingFile && !existsSync(config.pricingFile)) problems.push(`pricing file ${config.pricingFile} does not exist`);
  if (config.apiKey !== null && config.apiKey.length < MIN_API_KEY_LENGTH) {
    problems.push(
      `${config.apiKeyName} is ${config.apiKey.length} characters long; a key must have at least ${MIN_API_KEY_LENGTH} ` +
        '(`voxdesk keys create` prints a strong one)',
    );
  }
  if (config.apiKey !== null && /\s/.test(config.apiKey)) problems.push(`${config.apiKeyName} must not contain spaces`);
  if (problems.length) throw new Error(`invalid service configuration: ${problems.join('; ')}`);
}
