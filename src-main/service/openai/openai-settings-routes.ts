/**
 * GET/PUT /v1/settings/openai (local account only): which models OpenAI's names (whisper-1, tts-1, …) use and which
 * voice each OpenAI voice speaks with, plus what can be chosen (docs/openai-compatible.md). GET answers the stored
 * choices (null = automatic), what they resolve to now, the choices, and the speech formats this machine makes.
 * PUT takes `{transcription_model?, translation_model?, speech_model?, voices?}` (see OpenAiModels.update).
 * Like the other settings, they belong to the person at the machine: other accounts get 404.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import { ApiError } from '../../common/errors.js';
import type { AppEnv } from '../app-env.js';
import { LOCAL_ACCOUNT } from '../config.js';
import { readJsonObject } from '../http/json-body.js';
import type { OpenAiModels } from './openai-models.js';

const localOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.get('owner').accountName !== LOCAL_ACCOUNT) throw new ApiError('not_found', 'the OpenAI-compatibility settings belong to the local account');
  await next();
};

export function openAiSettingsRoutes(models: OpenAiModels): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('/v1/settings/openai', localOnly);
  app.get('/v1/settings/openai', (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(models.view());
  });
  app.put('/v1/settings/openai', async (c) => {
    const view = models.update(await readJsonObject(c));
    c.header('Cache-Control', 'no-store');
    return c.json(view);
  });
  return app;
}
