/**
 * `voxdesk serve`: runs the service until SIGTERM/SIGINT. The first stdout line is exactly
 * `voxdesk listening on http://HOST:PORT` (scripts and tests parse it); diagnostics go to stderr. With --ui, stderr
 * says `browser UI: http://HOST:PORT/#token=…`: open that address once to log the browser in.
 *
 * With `--database postgres://…` (or VOXDESK_DATABASE_URL) it is an API node of a cluster (docs/cluster.md): it
 * answers the API and the sockets and runs no queued job unless given `--workers N`; `voxdesk worker` nodes run them.
 * SIGTERM drains: no new connections or claims, running jobs get --shutdown-grace seconds, the rest go back to the
 * queue, exit 0.
 */
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_HOLD_SECONDS, DEFAULT_PORT, type ServiceConfig } from '../service/config.js';
import { createService } from '../service/create-service.js';
import { installLastResortHandlers } from '../service/last-resort.js';
import { addClusterOptions, clusterConfig, type ClusterOptions } from './cluster-options.js';
import { collect, integerOption, numberOption } from './options.js';
import { drainOnSignal } from './drain-on-signal.js';
import { createLog } from '../common/log.js';
import { textSink } from '../common/log-sinks.js';
import { tell } from './output.js';

/**
 * The built renderer shipped with the package: `--ui` without a directory serves it. From sources this file is
 * src-main/cli/, from a build dist/src-main/cli/; the renderer is built to <root>/src-renderer/dist either way.
 */
export function defaultUiDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, '..', '..', 'src-renderer', 'dist'), join(here, '..', '..', '..', 'src-renderer', 'dist')];
  return candidates.find((dir) => existsSync(join(dir, 'index.html'))) ?? candidates[0]!;
}

interface ServeOptions {
  host: string;
  port: number;
  dataDir?: string;
  holdSeconds: number;
  workers?: number;
  ui?: string | boolean;
  pricingFile?: string;
  allowedOrigin?: string[];
  remoteUrl?: string;
  modelMirror?: string;
  caFile?: string;
  mcpAllAccounts?: boolean;
  shutdownGrace: number;
}

export function registerServeCommand(program: Command): void {
  const serve = program
    .command('serve')
    .description('run the audio-jobs HTTP service until SIGTERM/SIGINT')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--port <port>', 'TCP port (0 = a free one)', integerOption(0, 65535), DEFAULT_PORT)
    .option('--data-dir <dir>', 'database, uploads, artifacts and models (default $VOXDESK_DATA_DIR or the OS app-data dir)')
    .option('--hold-seconds <s>', 'how long a single-item POST waits for its job', numberOption(0), DEFAULT_HOLD_SECONDS)
    .option('--workers <n>', 'engine worker processes (default: cores - 1, at most 4; with --database: none, this node only answers the API)', integerOption(1, 64))
    .option('--ui [dir]', 'serve the browser UI (default dir: the built renderer, src-renderer/dist)')
    .option('--pricing-file <file>', 'operator prices (default: DATA_DIR/pricing.json when it exists)')
    .option('--allowed-origin <origin>', 'a browser origin allowed by CORS (repeatable)', collect)
    .option('--remote-url <url>', 'hosted service to forward remote:<id> models to; key from $VOXDESK_REMOTE_KEY (default $VOXDESK_REMOTE_URL or Settings)')
    .option('--model-mirror <url>', 'download curated models from this mirror (kept as the setting; default the setting, else $VOXDESK_MODEL_MIRROR)')
    .option('--mcp-all-accounts', 'let every account use the MCP endpoint /mcp with its own key (default: the local account only)')
    .option('--ca-file <file>', 'PEM file of extra CAs trusted for model downloads (kept as the setting; default the setting, else $VOXDESK_CA_FILE)')
    .option('--shutdown-grace <s>', 'on SIGTERM, how long running jobs may take to finish before they go back to the queue', numberOption(0), 10);
  addClusterOptions(serve).action(async (opts: ServeOptions & ClusterOptions) => {
      const ui = opts.ui === true ? defaultUiDir() : typeof opts.ui === 'string' ? opts.ui : null;
      if (ui && !existsSync(join(ui, 'index.html'))) {
        throw new Error(`no built UI in ${ui} (run npm run build:renderer first)`);
      }
      const cluster = clusterConfig(opts, 'serve');
      const inCluster = cluster.databaseUrl !== null;
      const config: Partial<ServiceConfig> = {
        ...cluster.config,
        role: inCluster ? 'serve' : 'standalone',
        // A cluster's API node runs jobs only when told how many workers it has.
        runsJobs: !inCluster || opts.workers !== undefined,
        host: opts.host,
        port: opts.port,
        holdSeconds: opts.holdSeconds,
        serveUi: ui,
        ...(opts.dataDir ? { dataDir: opts.dataDir } : {}),
        ...(opts.workers !== undefined ? { workers: opts.workers } : {}),
        ...(opts.pricingFile ? { pricingFile: opts.pricingFile } : {}),
        ...(opts.allowedOrigin ? { allowedOrigins: opts.allowedOrigin } : {}),
        ...(opts.remoteUrl ? { remoteUrl: opts.remoteUrl } : {}),
        ...(opts.modelMirror ? { modelMirror: opts.modelMirror } : {}),
        ...(opts.caFile ? { caFile: opts.caFile } : {}),
        ...(opts.mcpAllAccounts ? { mcpForAllAccounts: true } : {}),
      };
      // The serve process writes only into the data dir, which is private: anything it creates is 0600/0700.
      process.umask(0o077);
      installLastResortHandlers({
        log: cluster.logFormat === 'json' ? cluster.log : createLog(textSink({ timestamps: true })),
      });
      const service = await createService(config);
      process.stdout.write(`voxdesk listening on ${service.url}\n`);
      // The one-time login address: the page trades the token for a session; `curl` on the bootstrap gets 401.
      if (ui) tell(`browser UI: ${service.browserLoginUrl()}`);
      drainOnSignal({ graceSeconds: opts.shutdownGrace, close: (graceMs) => service.close(graceMs), drainingWhat: 'shutting down', log: cluster.log });
    });
}
