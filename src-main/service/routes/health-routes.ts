/**
 * GET /v1/health: liveness for scripts and load balancers. Without a key it answers `{"status":"ok"}` and nothing
 * else (no data for anonymous callers). With a key of the local account (the machine's owner: its CLI, desktop app and
 * browser UI; the administering account of a cluster) it adds `uptime_seconds`, the service-wide `queued` and
 * `running` counts, this node's `role` (standalone, serve) and `node` id and `database: "ok"`; other accounts of a
 * shared service get `{"status":"ok"}` too, since those counts describe everyone's work on the machine, not theirs.
 * A node that cannot reach its PostgreSQL database answers 503 `{"status":"unavailable","database":…}` to anyone,
 * so a load balancer stops sending it requests.
 *
 * GET /health answers the anonymous part of the same, outside /v1, for load balancers' probes.
 * GET /metrics (outside /v1, for Prometheus; the administering account's key as a bearer token): ops/metrics.ts.
 */
import { Hono } from 'hono';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../app-env.js';
import { keyOptionalRoute } from '../http/route-access.js';
import { ApiError } from '../../common/errors.js';
import type { KeyOwner } from '../auth/api-keys.js';
import { LOCAL_ACCOUNT } from '../config.js';
import { databaseReachable } from '../ops/database-check.js';

const STARTED = Date.now();

export function healthRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // GET /health: the same for a load balancer's probe, outside /v1 (never a key): a worker's health port answers it too.
  app.get('/health', async (c) => {
    const database = await databaseReachable(deps.store);
    if (!database.ok) return c.json({ status: 'unavailable', database: `unreachable: ${database.reason}` }, 503);
    return c.json({ status: 'ok' });
  });
  app.get('/v1/health', keyOptionalRoute, async (c) => {
    const database = await databaseReachable(deps.store);
    if (!database.ok) return c.json({ status: 'unavailable', database: `unreachable: ${database.reason}` }, 503);
    if (c.get('owner')?.accountName !== LOCAL_ACCOUNT) return c.json({ status: 'ok' });
    const queue = await deps.jobs.queueSummary();
    return c.json({
      status: 'ok',
      uptime_seconds: Math.round((Date.now() - STARTED) / 1000),
      queued: queue.queued,
      running: queue.running,
      role: deps.config.role,
      node: deps.nodeId,
      database: 'ok',
    });
  });
  app.get('/metrics', async (c) => {
    const owner = await ownerOf(deps, c.req.header('authorization'));
    if (owner?.accountName !== LOCAL_ACCOUNT) {
      throw new ApiError('unauthorized', 'GET /metrics needs the administering key (VOXDESK_API_KEY) as "Authorization: Bearer <key>"');
    }
    return c.body(await deps.metrics.scrape(), 200, { 'Content-Type': deps.metrics.contentType, 'Cache-Control': 'no-store' });
  });
  return app;
}

/** The owner of a bearer key (the session keys of this process included), or undefined. */
async function ownerOf(deps: AppDeps, header: string | undefined): Promise<KeyOwner | undefined> {
  const key = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
  if (!key) return undefined;
  return deps.sessionKeys.get(key) ?? (await deps.keys.find(key));
}
