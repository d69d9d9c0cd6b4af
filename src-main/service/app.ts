/**
 * The Hono app: CORS, authentication, every route, the central error handler and the 404. Pure wiring: no
 * listening here (createService does that), so tests can drive it with app.request.
 *
 * Each routes/*-routes.ts file is a sub-app mounted with app.route(); Hono keeps the order of mounting, so the more
 * specific paths are mounted first and the job routes (`/v1/:product/:jobId`) last. The /v1 checks are gates
 * (http/route-gates.ts): the router folds them into each route, so a route runs as one handler.
 */
import { Hono } from 'hono';
import type { AppDeps } from './app-deps.js';
import type { AppEnv } from './app-env.js';
import { authMiddleware } from './auth/auth-middleware.js';
import type { BrowserLogin } from './auth/browser-login.js';
import { isAdminPath, localAccountOnly } from './auth/local-account-only.js';
import { cutIdleBodies } from './http/body-idle-timeout.js';
import { durableAnswers } from './http/durable-answers.js';
import { corsHeaders } from './http/cors-headers.js';
import { handleErrors } from './http/error-handler.js';
import { REMEMBERED_PATHS, RememberedRoutes } from './http/remembered-routes.js';
import { fuseGates, type HonoEntry } from './http/route-gates.js';
import type { Result } from 'hono/router';
import { JOB_ID_HEADER } from './openai/openai-job.js';
import { OPENAI_ERROR_DIALECT } from './openai/openai-error.js';
import { OpenAiModels } from './openai/openai-models.js';
import { openAiSettingsRoutes } from './openai/openai-settings-routes.js';
import { speechRoutes } from './openai/speech-route.js';
import { transcriptionRoutes } from './openai/transcription-routes.js';
import { registerStaticUi } from './http/static-ui.js';
import { artifactRoutes } from './routes/artifact-routes.js';
import { budgetSettingsRoutes } from './routes/budget-settings-routes.js';
import { captureRoutes } from './capture/capture-routes.js';
import { exportRoutes } from './routes/export-routes.js';
import { healthRoutes } from './routes/health-routes.js';
import { hostedSettingsRoutes } from './routes/hosted-settings-routes.js';
import { languageModelSettingsRoutes } from './routes/language-model-settings-routes.js';
import { transcriptAiRoutes } from './routes/transcript-ai-routes.js';
import { jobRoutes } from './routes/job-routes.js';
import { keysRoutes } from './routes/keys-routes.js';
import { modelManagerRoutes } from './routes/model-manager-routes.js';
import { welcomeRoutes } from './routes/welcome-routes.js';
import { modelRoutes } from './routes/model-routes.js';
import { modelSettingsRoutes } from './routes/model-settings-routes.js';
import { productRoutes } from './routes/product-routes.js';
import { VOXDESK_VERSION } from '../common/version.js';
import { MCP_PATH, mcpRoutes } from './mcp/mcp-route.js';
import { recordingRoutes } from './routes/recording-routes.js';
import { retranscribeRoutes } from './routes/retranscribe-routes.js';
import { vocabularyRoutes } from './routes/vocabulary-routes.js';
import { speakerRoutes } from './routes/speaker-routes.js';
import { voiceRoutes } from './routes/voice-routes.js';
import { retentionSettingsRoutes } from './routes/retention-settings-routes.js';
import { sessionRoutes } from './routes/session-routes.js';
import { searchRoutes } from './routes/search-routes.js';
import { transcriptRevisionRoutes } from './routes/transcript-revision-routes.js';
import { transcriptRoutes } from './routes/transcript-routes.js';
import { usageRoutes } from './routes/usage-routes.js';
import { watchFolderRoutes } from './routes/watch-folder-routes.js';

export type { AppEnv } from './app-env.js';

export interface BuildAppOptions {
  /** The browser UI's one-time-token login (only with serveUi). */
  browserLogin?: BrowserLogin | null;
}

export function buildApp(deps: AppDeps, options: BuildAppOptions = {}): Hono<AppEnv> {
  // One read of other connections' commits per request, shared by the key check and the job view cache.
  const scope = <T>(run: () => T): T => deps.store.othersNow.within(run);
  const router = new RememberedRoutes(REMEMBERED_PATHS, (result: Result<HonoEntry>) => fuseGates(result, scope));
  const app = handleErrors(new Hono<AppEnv>({ router }), deps.config.log, [OPENAI_ERROR_DIALECT]);

  app.use(
    '/v1/*',
    corsHeaders({
      allowOrigin: (origin) => (deps.origins.isAllowed(origin) ? origin : null),
      allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      allowHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key'],
      exposeHeaders: ['Content-Disposition', 'Content-Length', JOB_ID_HEADER],
      maxAge: 600,
    }),
  );
  app.use('/v1/*', authMiddleware(deps));
  // Only on writes, so reads keep their fused gates (http/route-gates.ts).
  if (deps.config.durableAnswers) app.on(['POST', 'PUT', 'PATCH', 'DELETE'], '/v1/*', durableAnswers(deps.durability));
  app.use('/v1/*', cutIdleBodies(deps.config.bodyIdleTimeoutMs));
  // The machine's administration (model manager, settings, keys) and its microphone and sound (captures) answer the
  // local account only.
  app.use('/v1/*', localAccountOnly(isAdminPath));

  // The MCP endpoint (mcp/mcp-route.ts): the same key and Origin checks; the local account's unless enabled for all.
  app.use(MCP_PATH, authMiddleware(deps));
  if (!deps.config.mcpForAllAccounts) app.use(MCP_PATH, localAccountOnly());
  app.route('/', mcpRoutes(deps, VOXDESK_VERSION));

  app.route('/', healthRoutes(deps));
  app.route('/', sessionRoutes(deps, options.browserLogin ?? null));
  app.route('/', artifactRoutes(deps));
  app.route('/', retentionSettingsRoutes(deps.store.repos.settings, deps.uploadsDir));
  app.route('/', budgetSettingsRoutes(deps.jobs));
  app.route('/', usageRoutes(deps));
  app.route('/', modelManagerRoutes(deps.models));
  app.route('/', welcomeRoutes(deps));
  app.route('/', modelSettingsRoutes(deps.models, deps.store.repos.settings));
  app.route('/', hostedSettingsRoutes(deps.remote));
  app.route('/', languageModelSettingsRoutes(deps.languageModel.settings));
  app.route('/', watchFolderRoutes(deps));
  app.route('/', keysRoutes(deps.keys));
  app.route('/', captureRoutes(deps.captures));
  const openAiModels = new OpenAiModels(deps.catalogue, deps.store.repos.settings, () => deps.models.refresh());
  app.route('/', openAiSettingsRoutes(openAiModels));
  app.route('/', transcriptionRoutes(deps, openAiModels));
  app.route('/', speechRoutes(deps, openAiModels));
  app.route('/', modelRoutes(deps));
  app.route('/', productRoutes(deps));
  app.route('/', searchRoutes(deps.transcripts));
  app.route('/', exportRoutes(deps.transcripts, deps.exports));
  app.route('/', transcriptRevisionRoutes(deps.transcripts));
  app.route('/', transcriptAiRoutes(deps));
  app.route('/', recordingRoutes(deps));
  app.route('/', retranscribeRoutes(deps));
  app.route('/', vocabularyRoutes(deps.store.repos));
  app.route('/', speakerRoutes(deps.store));
  app.route('/', voiceRoutes(deps));
  app.route('/', transcriptRoutes(deps));
  app.route('/', jobRoutes(deps));
  if (deps.config.serveUi) registerStaticUi(app, deps.config.serveUi);
  return app;
}
