/**
 * GET/PUT /v1/settings/openai: which models OpenAI's names (whisper-1, tts-1, …) use and which voice each OpenAI
 * voice speaks with, plus what can be chosen (docs/openai-compatible.md). GET answers the stored choices (null =
 * automatic), what they resolve to now, the choices, and the speech formats this machine makes. PUT takes
 * `{transcription_model?, translation_model?, speech_model?, voices?}` (see OpenAiModels.update). Like every route
 * under /v1/settings, it answers the local account only (auth/local-account-only.ts, applied by path in app.ts).
 */
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { readJsonObject } from '../http/json-body.js';
import type { OpenAiModels } from './openai-models.js';

export function openAiSettingsRoutes(models: OpenAiModels): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/v1/settings/openai', async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(await models.view());
  });
  app.put('/v1/settings/openai', async (c) => {
    const view = await models.update(await readJsonObject(c));
    c.header('Cache-Control', 'no-store');
    return c.json(view);
  });
  return app;
}
