/**
 * The options `voxdesk serve` and `voxdesk worker` share for running on a cluster: the database, the shared storage,
 * the lease on running jobs and the log format; each also read from its environment variable. `clusterConfig` turns
 * them into the service configuration, refusing bad values with what is accepted.
 */
import type { Command } from 'commander';
import type { ServiceConfig } from '../service/config.js';
import { chooseDatabaseUrl } from '../service/open-store.js';
import { chooseLogFormat, sinkFor, type LogFormat } from '../service/ops/log-format.js';
import { numberOption } from './options.js';
import { createLog, type Log } from '../common/log.js';

export const STORAGE_ENV = 'VOXDESK_STORAGE';

export interface ClusterOptions {
  database?: string;
  storage?: string;
  leaseSeconds?: number;
  logFormat?: string;
}

export function addClusterOptions(command: Command): Command {
  return command
    .option('--database <url>', 'a cluster\'s shared PostgreSQL database, postgres://USER:PASSWORD@HOST:PORT/DB (default $VOXDESK_DATABASE_URL, else the SQLite file in the data dir)')
    .option('--storage <dir>', 'folder every node mounts at the same path, for uploads, recordings, artifacts and models (default $VOXDESK_STORAGE, else the data dir)')
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
  if (storage && /^[a-z][a-z0-9+.-]*:\/\//i.test(storage)) {
    throw new Error(`--storage must be a folder path (S3 storage is not supported yet), got ${storage}`);
  }
  const logFormat = chooseLogFormat(opts.logFormat, env);
  const log = createLog(sinkFor(logFormat, { role }));
  return {
    databaseUrl,
    logFormat,
    log,
    config: {
      databaseUrl,
      log,
      ...(storage ? { storageDir: storage } : {}),
      ...(opts.leaseSeconds !== undefined ? { leaseSeconds: opts.leaseSeconds } : {}),
    },
  };
}
