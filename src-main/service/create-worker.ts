/**
 * A cluster's engine node (`voxdesk worker`): the job engine on the shared database and storage, claiming queued
 * jobs and running them, and nothing else — no API, no sockets, no watch folders. It may listen on a health port
 * for the operator: `GET /health` (its role, node id, whether the database answers; 503 when it does not) and
 * `GET /metrics` (ops/metrics.ts), on the interface given (loopback by default), without a key.
 *
 * close(grace) drains: no more claims, running jobs get `grace` to finish, what is still running then goes back to
 * the queue (another node continues it after its last committed segment), then the store closes.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolveConfig, type ServiceConfig } from './config.js';
import { DEFAULT_SHUTDOWN_GRACE_MS } from './create-service.js';
import { createEngineParts, type EngineParts } from './engine-parts.js';
import { databaseReachable } from './ops/database-check.js';
import { createNodeMetrics } from './ops/metrics.js';

export interface WorkerOptions {
  /** Health and metrics port (0 = a free one); undefined: no listener at all. */
  healthPort?: number;
  /** Interface of the health port. Default 127.0.0.1. */
  healthHost?: string;
}

export interface Worker {
  readonly parts: EngineParts;
  /** `http://HOST:PORT` of the health port, or null without one. */
  readonly healthUrl: string | null;
  close(graceMs?: number): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (error) => reject(new Error(`cannot listen on ${host}:${port} for health: ${error.message}`, { cause: error })));
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

export async function createWorker(partial: Partial<ServiceConfig>, options: WorkerOptions = {}): Promise<Worker> {
  const config = resolveConfig({ ...partial, role: 'worker', runsJobs: true });
  const opened: (() => unknown)[] = [];
  try {
    // A worker has no API: download links in results name the API nodes' address, which the job rows carry.
    const parts = await createEngineParts(config, opened, () => `http://${config.host}:${config.port}`);
    const metrics = createNodeMetrics({ store: parts.opened.store, jobs: parts.jobs, role: 'worker', node: parts.nodeId });
    opened.push(() => metrics.stop());
    let server: Server | null = null;
    let healthUrl: string | null = null;
    if (options.healthPort !== undefined) {
      const host = options.healthHost ?? '127.0.0.1';
      server = createServer((req, res) => {
        const path = (req.url ?? '/').split('?')[0];
        const answer = async (): Promise<void> => {
          if (req.method !== 'GET' && req.method !== 'HEAD') {
            res.writeHead(405, { Allow: 'GET, HEAD' }).end();
          } else if (path === '/health' || path === '/v1/health') {
            const database = await databaseReachable(parts.opened.store);
            const queue = database.ok ? await parts.jobs.queueSummary() : null;
            const body = database.ok
              ? { status: 'ok', role: 'worker', node: parts.nodeId, database: 'ok', queued: queue!.queued, running: queue!.running, workers: parts.jobs.workerStats().size }
              : { status: 'unavailable', role: 'worker', node: parts.nodeId, database: `unreachable: ${database.reason}` };
            res.writeHead(database.ok ? 200 : 503, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end(JSON.stringify(body));
          } else if (path === '/metrics') {
            res.writeHead(200, { 'Content-Type': metrics.contentType, 'Cache-Control': 'no-store' }).end(await metrics.scrape());
          } else {
            res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: { code: 'not_found', message: 'a worker answers GET /health and GET /metrics only' } }));
          }
        };
        answer().catch((error: Error) => {
          config.log.info(`health port: ${error.message}`);
          if (!res.headersSent) res.writeHead(500).end();
        });
      });
      metrics.watch(server);
      const port = await listen(server, options.healthPort, host);
      const listening = server;
      opened.push(() => new Promise<void>((resolve) => listening.close(() => resolve())));
      healthUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    }
    await parts.jobs.start();

    let closed: Promise<void> | null = null;
    const close = (graceMs = DEFAULT_SHUTDOWN_GRACE_MS): Promise<void> =>
      (closed ??= (async () => {
        await Promise.all([parts.jobs.shutdown(graceMs), parts.models.stop()]);
        await parts.transcripts.close();
        parts.remote.stop();
        metrics.stop();
        if (server) {
          const stopping = server;
          await new Promise<void>((resolve) => {
            stopping.close(() => resolve());
            stopping.closeAllConnections();
          });
        }
        await parts.opened.close();
      })());
    return { parts, healthUrl, close };
  } catch (error) {
    for (const undo of opened.reverse()) await Promise.resolve().then(undo).catch(() => undefined);
    throw error;
  }
}
