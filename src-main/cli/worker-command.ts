/**
 * `voxdesk worker --database postgres://… --storage DIR`: a cluster's engine node (docs/cluster.md). It claims queued
 * jobs from the shared database and runs them with its engine processes, writing artifacts and reading uploads in
 * the shared storage; it answers no API. The first stdout line is exactly `voxdesk worker running` followed by
 * ` (health on http://HOST:PORT)` when --health-port is given (scripts and tests parse it). SIGTERM/SIGINT drain: no
 * more claims, running jobs get --shutdown-grace seconds to finish, what is still running goes back to the queue for
 * another node, exit 0.
 */
import type { Command } from 'commander';
import type { ServiceConfig } from '../service/config.js';
import { createWorker } from '../service/create-worker.js';
import { installLastResortHandlers } from '../service/last-resort.js';
import { addClusterOptions, clusterConfig, type ClusterOptions } from './cluster-options.js';
import { integerOption, numberOption } from './options.js';
import { drainOnSignal } from './drain-on-signal.js';

interface WorkerCommandOptions extends ClusterOptions {
  dataDir?: string;
  workers?: number;
  healthPort?: number;
  healthHost: string;
  pricingFile?: string;
  shutdownGrace: number;
}

export function registerWorkerCommand(program: Command): void {
  const worker = program
    .command('worker')
    .description("run a cluster's queued jobs (needs --database); no API, an optional health and metrics port")
    .option('--data-dir <dir>', "this node's own folder: its SQLite file for the model manager and the hosted settings (default $VOXDESK_DATA_DIR or the OS app-data dir)")
    .option('--workers <n>', 'engine worker processes (default: cores - 1, at most 4)', integerOption(1, 64))
    .option('--health-port <port>', 'serve GET /health and GET /metrics on this port (0 = a free one; default: none)', integerOption(0, 65535))
    .option('--health-host <host>', 'interface of the health port', '127.0.0.1')
    .option('--pricing-file <file>', 'operator prices, the same file as the API nodes\' (default: DATA_DIR/pricing.json when it exists)')
    .option('--shutdown-grace <s>', 'on SIGTERM, how long running jobs may take to finish before they go back to the queue', numberOption(0), 10);
  addClusterOptions(worker).action(async (opts: WorkerCommandOptions) => {
    const cluster = clusterConfig(opts, 'worker');
    if (!cluster.databaseUrl) {
      throw new Error('a worker needs the cluster\'s database: pass --database postgres://USER:PASSWORD@HOST:PORT/DB or set VOXDESK_DATABASE_URL');
    }
    const config: Partial<ServiceConfig> = {
      ...cluster.config,
      ...(opts.dataDir ? { dataDir: opts.dataDir } : {}),
      ...(opts.workers !== undefined ? { workers: opts.workers } : {}),
      ...(opts.pricingFile ? { pricingFile: opts.pricingFile } : {}),
    };
    process.umask(0o077);
    installLastResortHandlers({ log: cluster.log });
    const running = await createWorker(config, opts.healthPort !== undefined ? { healthPort: opts.healthPort, healthHost: opts.healthHost } : {});
    process.stdout.write(`voxdesk worker running${running.healthUrl ? ` (health on ${running.healthUrl})` : ''}\n`);
    cluster.log.info(`worker ${running.parts.nodeId} claims jobs from the cluster's database`);
    drainOnSignal({ graceSeconds: opts.shutdownGrace, close: (graceMs) => running.close(graceMs), drainingWhat: 'draining (no more claims)', log: cluster.log });
  });
}
