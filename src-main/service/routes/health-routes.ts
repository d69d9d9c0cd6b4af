/**
 * GET /v1/health: liveness for scripts and load balancers. Without a key it answers `{"status":"ok"}` and nothing
 * else (no data for anonymous callers). With a key of the local account (the machine's owner: its CLI, desktop app and
 * browser UI) it adds `uptime_seconds` and the service-wide `queued` and `running` counts; other accounts of a shared
 * service get `{"status":"ok"}` too, since those counts describe everyone's work on the machine, not theirs.
 */
import { Hono } from 'hono';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../app-env.js';
import { LOCAL_ACCOUNT } from '../config.js';

const STARTED = Date.now();

export function healthRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/v1/health', async (c) => {
    if (c.get('owner')?.accountName !== LOCAL_ACCOUNT) return c.json({ status: 'ok' });
    const queue = await deps.jobs.queueSummary();
    return c.json({ status: 'ok', uptime_seconds: Math.round((Date.now() - STARTED) / 1000), queued: queue.queued, running: queue.running });
  });
  return app;
}
