/** GET /v1/health (no key): liveness for scripts, the tray and load balancers, plus the queue summary. */
import { Hono } from 'hono';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../app-env.js';

const STARTED = Date.now();

export function healthRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/v1/health', (c) => {
    const queue = deps.jobs.queueSummary();
    return c.json({ status: 'ok', uptime_seconds: Math.round((Date.now() - STARTED) / 1000), queued: queue.queued, running: queue.running });
  });
  return app;
}
