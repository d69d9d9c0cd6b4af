/**
 * GET /v1/local/welcome?language=xx (local account only, like every /v1/local route): what the first-start screen
 * offers — whether the data dir is new, the recognizer recommended for the language with its size, licence and
 * download state, alternatives, and PocketSphinx as the no-download fallback (common/api-types.ts WelcomeInfo;
 * first-start/recommend-recognizer.ts). The download itself is the model manager's (POST /v1/local/models/{id}/download,
 * which resumes, and GET /v1/local/models/{id} for progress). `language` not a language tag → 400 invalid_request.
 */
import { Hono } from 'hono';
import type { WelcomeInfo } from '../../common/api-types.js';
import { ApiError } from '../../common/errors.js';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../app-env.js';
import { queryOf, singleQuery } from '../http/query-params.js';
import { fallbackRecognizer, FALLBACK_RECOGNIZER, primaryLanguage, recommendRecognizers } from '../first-start/recommend-recognizer.js';

export function welcomeRoutes(deps: Pick<AppDeps, 'models' | 'catalogue' | 'store'>): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/v1/local/welcome', async (c) => {
    const asked = singleQuery(queryOf(c.req.url), 'language');
    const language = asked === undefined || asked === '' ? 'en' : primaryLanguage(asked);
    if (!language) throw new ApiError('invalid_request', `language must be a language tag such as en, de or pt-BR (got "${asked}")`);
    const packages = deps.models.list();
    const [recommended, ...alternatives] = recommendRecognizers(language, packages);
    const ownRecognizer = packages.some((p) => p.installed && !p.built_in && p.capability === 'asr');
    const anyJob = (await deps.store.repos.jobs.page({ accountId: c.get('owner').accountId, product: null, status: null, after: null, limit: 1 })).length > 0;
    const body: WelcomeInfo = {
      object: 'welcome',
      new_data_dir: !ownRecognizer && !anyJob,
      language,
      recommended: recommended ?? null,
      alternatives,
      fallback: fallbackRecognizer(deps.catalogue.get(FALLBACK_RECOGNIZER)),
    };
    return c.json(body);
  });
  return app;
}
