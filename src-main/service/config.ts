/**
 * Every option of the HTTP service, each with its default, in one place (docs/design.md §6.7). The CLI, the Electron
 * shell and tests pass a partial config; resolveConfig fills in the rest.
 */
import envPaths from 'env-paths';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MAX_FILE_BYTES } from '../common/limits.js';
import type { ModelSourceFactory } from '../engines/model-sources.js';
import { forkLauncher, type ProcessLauncher } from '../engines/worker/process-launcher.js';
import { normaliseRemoteUrl } from '../remote/remote-settings-store.js';

export interface ServiceConfig {
  /** Interface to listen on. Default 127.0.0.1 (loopback only: the service is personal). */
  host: string;
  /** TCP port; 0 picks a free ephemeral port. Default 8750. */
  port: number;
  /** Database, uploads, artifacts and models live here. Default: $VOXDESK_DATA_DIR, else the OS per-user data dir. */
  dataDir: string;
  /** How long a single-item POST holds the connection waiting for a terminal job. Default 240 s (spec: 4 minutes). */
  holdSeconds: number;
  /**
   * Largest accepted upload per file, in bytes, inclusive. Default MAX_FILE_BYTES = 499,999,999 (spec: "under 500 MB",
   * common/limits.ts); a model's limit may be lower. The catalogue's limits.max_file_bytes reports the smaller of the two.
   */
  maxUploadBytes: number;
  /** Operator prices (JSON). Default: dataDir/pricing.json when that file exists, else none (on-device is free). */
  pricingFile: string | null;
  /** Worker processes running engines. Default: undefined = the job engine's own default. */
  workers: number | undefined;
  /** Origins allowed by CORS, e.g. a dev renderer. Default []: only the service's own origin. */
  allowedOrigins: string[];
  /** Directory of the built renderer served at `/`. Default null: no UI (API only). */
  serveUi: string | null;
  /** A key to register for the local account (VOXDESK_API_KEY). Default: $VOXDESK_API_KEY or none. */
  apiKey: string | null;
  /**
   * Hosted service to forward remote models to (`voxdesk serve --remote-url URL`; its key comes from
   * $VOXDESK_REMOTE_KEY). Stored in the remote settings when given. Default null: $VOXDESK_REMOTE_URL when set,
   * else whatever Settings hold.
   */
  remoteUrl: string | null;
  /** Extra catalogue sources (tests register the job engine's test engine models). Default []. */
  extraModelSources: ModelSourceFactory[];
  /** Logger for unexpected errors and lifecycle lines; never stdout (the first stdout line is a contract). */
  log: (message: string) => void;
  /**
   * Starts the engine worker and live voice processes. Default child_process.fork; the Electron app passes
   * Electron's utilityProcess (its packaged build cannot run itself as Node).
   */
  processLauncher: ProcessLauncher;
}

export const DEFAULT_PORT = 8750;
export const DEFAULT_HOLD_SECONDS = 240;
export const DEFAULT_MAX_UPLOAD_BYTES = MAX_FILE_BYTES;
/** Name of the account that owns the local machine's keys (CLI, desktop app, browser UI bootstrap). */
export const LOCAL_ACCOUNT = 'local';

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
    holdSeconds: partial.holdSeconds ?? DEFAULT_HOLD_SECONDS,
    maxUploadBytes: partial.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES,
    pricingFile: partial.pricingFile !== undefined ? partial.pricingFile : existsSync(defaultPricing) ? defaultPricing : null,
    workers: partial.workers,
    allowedOrigins: partial.allowedOrigins ?? [],
    serveUi: partial.serveUi ? resolve(partial.serveUi) : null,
    apiKey: partial.apiKey !== undefined ? partial.apiKey : (env.VOXDESK_API_KEY || null),
    remoteUrl: partial.remoteUrl ? remoteUrlOf(partial.remoteUrl) : null,
    extraModelSources: partial.extraModelSources ?? [],
    log: partial.log ?? ((message) => process.stderr.write(`${message}\n`)),
    processLauncher: partial.processLauncher ?? forkLauncher,
  };
  validateConfig(config);
  return config;
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
  if (config.workers !== undefined && (!Number.isInteger(config.workers) || config.workers < 1)) problems.push(`workers ${config.workers} must be an integer ≥ 1`);
  if (config.serveUi && !existsSync(join(config.serveUi, 'index.html'))) problems.push(`--ui directory ${config.serveUi} has no index.html (run npm run build:renderer)`);
  if (config.pricingFile && !existsSync(config.pricingFile)) problems.push(`pricing file ${config.pricingFile} does not exist`);
  if (problems.length) throw new Error(`invalid service configuration: ${problems.join('; ')}`);
}
