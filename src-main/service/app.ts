/**
 * The Hono app: CORS, authentication, every route, the central error handler and the 404. Pure wiring: no
 * listening here (createService does that), so tests can drive it with app.request.
 */
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import type { AppDeps } from './app-deps.js';
import { authMiddleware, type AuthVariables } from './auth/auth-middleware.js';
import { makeErrorHandler, notFound } from './http/error-handler.js';
import { registerStaticUi } from './http/static-ui.js';
import { registerArtifactRoutes } from './routes/artifact-routes.js';
import { registerExportRoutes } from './routes/export-routes.js';
import { registerHealthRoutes } from './routes/health-routes.js';
import { registerJobRoutes } from './routes/job-routes.js';
import { registerModelRoutes } from './routes/model-routes.js';
import { registerProductPosts } from './routes/product-posts.js';
import { registerRetentionSettingsRoutes } from './routes/retention-settings.js';
import { registerSessionRoutes } from './routes/session-routes.js';

export type AppEnv = { Variables: AuthVariables };

export interface BuildAppOptions {
  /** The browser UI's session key (only with serveUi). */
  sessionKey?: string | null;
  /** Routes other areas add (the model manager's /v1/models/* actions), registered before the generic ones. */
  extraRoutes?: ((app: Hono<AppEnv>) => void)[];
}

export function buildApp(deps: AppDeps, options: BuildAppOptions = {}): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError(makeErrorHandler(deps.config.log));
  app.notFound(notFound);

  app.use(
    '/v1/*',
    cors({
      origin: (origin) => (deps.origins.isAllowed(origin) ? origin : null),
      allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
      allowHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key'],
      exposeHeaders: ['Content-Disposition', 'Content-Length'],
      maxAge: 600,
    }),
  );
  app.use('/v1/*', authMiddleware(deps));

  registerHealthRoutes(app, deps);
  registerSessionRoutes(app, deps, options.sessionKey ?? null);
  registerArtifactRoutes(app, deps);
  registerRetentionSettingsRoutes(app, deps.repos.settings);
  for (const add of options.extraRoutes ?? []) add(app);
  registerModelRoutes(app, deps);
  registerProductPosts(app, deps);
  registerExportRoutes(app, deps);
  registerJobRoutes(app, deps);
  if (deps.config.serveUi) registerStaticUi(app, deps.config.serveUi);
  return app;
}
