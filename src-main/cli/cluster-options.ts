/**
 * The options `voxdesk serve` and `voxdesk worker` share for running on a cluster: the database, the shared storage
 * (a folder, or an S3-compatible bucket with its endpoint and this node's cache bound), the lease on running jobs and
 * the log format; each also read from its environment variable. `clusterConfig` turns them into the service
 * configuration, refusing bad values with what is accepted.
 */
import type { Command } from 'commander';
import type { ServiceConfig } from '../service/config.js';
import { chooseDatabaseUrl } from '../service/open-store.js';
import { chooseLogFormat, sinkFor, type LogFormat } from '../service/ops/log-format.js';
import { numberOption } from './options.js';
import { createLog, type Log } from '../common/log.js';
import { parseStorageLocation } from '../store/objects/storage-location.js';

export const STORAGE_ENV = 'VOXDESK_STORAGE';
export const S3_ENDPOINT_ENV = 'VOXDESK_S3_ENDPOINT';
export const STORAGE_CACHE_ENV = 'VOXDESK_STORAGE_CACHE_MB';
/** A node's cache of the bucket, by default: 10 GiB. */
export const DEFAULT_STORAGE_CACHE_MB = 10_240;

export interface ClusterOptions {
  database?: string;
  storage?: string;
  storageEndpoint?: string;
  storageCacheMb?: number;
  leaseSeconds?: number;
  logFormat?: string;
}

export function addClusterOptions(command: Command): Command {
  return command
    .option('--database <url>', 'a cluster\'s shared PostgreSQL database, postgres://USER:PASSWORD@HOST:PORT/DB (default $VOXDESK_DATABASE_URL, else the SQLite file in the data dir)')
    .option('--storage <dir|s3-url>', 'uploads, recordings, artifacts and models: a folder every node mounts at the same path, or s3://BUCKET/PREFIX (default $VOXDESK_STORAGE, else the data dir)')
    .option('--storage-endpoint <url>', 'an S3-compatible service\'s URL for s3:// storage, path-style (default $VOXDESK_S3_ENDPOINT, else AWS)')
    .option('--storage-cache-mb <mb>', 'with s3:// storage, how much of the bucket this node keeps on its disk (default $VOXDESK_STORAGE_CACHE_MB, else 10240)', numberOption(1))
    .option('--lease-seconds <s>', 'how long a claim on a running job lasts without renewal; a dead node\'s job is taken over after it (default 60)', numberOption(1))
    .option('--log-format <format>', 'text or json (one JSON object per line; default $VOXDESK_LOG_FORMAT, else text)');
}

export interface ClusterConfig {
  config: Partial<ServiceConfig>;
  databaseUrl: string | null;
  logFormat: LogFormat;
  /** The process's log, in the chosen format (the service's, and the command's own lines: start, shutdown). */
  log: Log;
}

export function clusterConfig(opts: ClusterOptions, role: 'serve' | 'worker', env: NodeJS.ProcessEnv = process.env): ClusterConfig {
  const databaseUrl = chooseDatabaseUrl(opts.database, env);
  const storage = opts.storage?.trim() || env[STORAGE_ENV]?.trim() || undefined;
  const endpoint = opts.storageEndpoint?.trim() || env[S3_ENDPOINT_ENV]?.trim() || undefined;
  if (endpoint && !storage) throw new Error(`--storage-endpoint is for S3 storage: give --storage s3://BUCKET/PREFIX (or ${STORAGE_ENV}) with it`);
  const location = storage ? parseStorageLocation(storage, endpoint) : undefined;
  const storageConfig: Partial<ServiceConfig> =
    location?.kind === 's3'
      ? { objectStorage: { location, cacheBytes: Math.round(cacheMegabytes(opts.storageCacheMb, env) * 1024 * 1024) } }
      : location
        ? { storageDir: location.dir }
        : {};
  const logFormat = chooseLogFormat(opts.logFormat, env);
  const log = createLog(sinkFor(logFormat, { role }));
  return {
    databaseUrl,
    logFormat,
    log,
    config: {
      databaseUrl,
      log,
      ...storageConfig,
      ...(opts.leaseSeconds !== undefined ? { leaseSeconds: opts.leaseSeconds } : {}),
    },
  };
}

/** --storage-cache-mb, else VOXDESK_STORAGE_CACHE_MB, else the default; a value that is not a positive number is refused. */
function cacheMegabytes(option: number | undefined, env: NodeJS.ProcessEnv): number {
  if (option !== undefined) return option;
  const value = env[STORAGE_CACHE_ENV]?.trim();
  if (!value) return DEFAULT_STORAGE_CACHE_MB;
  const mb = Number(value);
  if (!Number.isFinite(mb) || mb < 1) throw new Error(`${STORAGE_CACHE_ENV} must be a number of megabytes, at least 1, got ${JSON.stringify(value)}`);
  return mb;
}
