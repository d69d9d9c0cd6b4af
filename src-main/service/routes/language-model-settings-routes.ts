/**
 * GET/PUT /v1/settings/language-model: the OpenAI-compatible chat endpoint the key's account runs AI actions with
 * (docs/ai-actions.md), and POST /v1/settings/language-model/test: "Test connection" — asks the endpoint's
 * `GET /models` with the given (or stored) settings and says whether it answered and lists the model. The key is write
 * only (sealed like the hosted key: remote/language-model/language-model-settings.ts); answers carry `api_key_set`.
 * PUT body `{base_url: string|null, model: string|null, api_key?: string|null, context_tokens?: number|null,
 * price?: {input_per_million_tokens, output_per_million_tokens}|null}` — `api_key` omitted keeps the stored key, ''
 * or null clears it; `base_url` null clears the endpoint; `price` (USD per million tokens) makes actions count
 * against the monthly cap for hosted work (ai-pricing.ts), omitted or null: a free, local endpoint.
 * Under /v1/settings, so the local account's only (auth/local-account-only.ts): the service makes requests to the URL
 * given here, which another account of a shared service must not choose.
 */
import { refuseUnknownFields } from '../../common/unknown-fields.js';
import { Hono } from 'hono';
import { ApiError } from '../../common/errors.js';
import { LanguageModelRefused, LanguageModelUnreachable, listModels } from '../../remote/language-model/language-model-client.js';
import { normaliseBaseUrl, type LanguageModelSettings, type LanguageModelSettingsUpdate } from '../../remote/language-model/language-model-settings.js';
import { MIN_PART_TOKENS, PROMPT_RESERVE_TOKENS } from '../../remote/language-model/ai-chunks.js';
import { parsePrice, type LanguageModelPrice } from '../../remote/language-model/ai-pricing.js';
import type { AppEnv } from '../app-env.js';
import { readJsonObject } from '../http/json-body.js';

const FIELDS = ['base_url', 'model', 'api_key', 'context_tokens', 'price'] as const;
const MIN_CONTEXT = PROMPT_RESERVE_TOKENS + 2 * MIN_PART_TOKENS;
const MAX_CONTEXT = 10_000_000;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f]/;

function bad(message: string, param: string): ApiError {
  return new ApiError('invalid_request', message, { param });
}

/** The PUT (or test) body checked field by field. */
export function parseLanguageModelBody(body: Record<string, unknown>): LanguageModelSettingsUpdate {
  refuseUnknownFields(body, FIELDS, '', 'PUT /v1/settings/language-model');
  if (!('base_url' in body)) throw bad('base_url is required (e.g. http://127.0.0.1:11434/v1 for Ollama), or null to clear the settings', 'base_url');
  const { base_url: rawUrl, model, api_key: apiKey, context_tokens: context } = body;
  if (rawUrl === null) return { baseUrl: null, model: null, contextTokens: null, price: null, apiKey: null };
  if (typeof rawUrl !== 'string' || !rawUrl.trim()) throw bad('base_url must be a URL or null', 'base_url');
  let baseUrl: string;
  try {
    baseUrl = normaliseBaseUrl(rawUrl);
  } catch (cause) {
    throw bad((cause as Error).message, 'base_url');
  }
  if (typeof model !== 'string' || !model.trim() || model.length > 200 || CONTROL.test(model)) {
    throw bad('model must name the model to use at that endpoint, e.g. "llama3.2" (Test connection lists them)', 'model');
  }
  if (apiKey !== undefined && apiKey !== null && typeof apiKey !== 'string') throw bad('api_key must be a string, or null to clear it', 'api_key');
  if (typeof apiKey === 'string' && /\s/.test(apiKey)) throw bad('api_key must not contain spaces', 'api_key');
  if (context !== undefined && context !== null && (typeof context !== 'number' || !Number.isInteger(context) || context < MIN_CONTEXT || context > MAX_CONTEXT)) {
    throw bad(`context_tokens must be a whole number of tokens from ${MIN_CONTEXT} to ${MAX_CONTEXT} (the model's context window), or null for 4096`, 'context_tokens');
  }
  let price: LanguageModelPrice | null;
  try {
    price = parsePrice(body.price);
  } catch (cause) {
    throw bad((cause as Error).message, 'price');
  }
  const update: LanguageModelSettingsUpdate = { baseUrl, model: model.trim(), contextTokens: (context as number | null | undefined) ?? null, price };
  if (apiKey !== undefined) update.apiKey = apiKey === '' ? null : (apiKey as string | null);
  return update;
}

export function languageModelSettingsRoutes(settings: LanguageModelSettings): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/v1/settings/language-model', (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(settings.view(c.get('owner').accountId));
  });

  app.put('/v1/settings/language-model', async (c) => {
    const update = parseLanguageModelBody(await readJsonObject(c));
    c.header('Cache-Control', 'no-store');
    return c.json(settings.update(c.get('owner').accountId, update));
  });

  /** Body: the settings to try (as PUT, the key omitted: the stored one), or none: the stored settings. */
  app.post('/v1/settings/language-model/test', async (c) => {
    const accountId = c.get('owner').accountId;
    const text = await c.req.text();
    let endpoint: { baseUrl: string; model: string; apiKey: string | null } | null;
    if (text.trim()) {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new ApiError('invalid_json', 'the body must be JSON: the settings to test, as PUT takes them');
      }
      if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ApiError('invalid_request', 'the body must be a JSON object');
      const update = parseLanguageModelBody(body as Record<string, unknown>);
      if (update.baseUrl === null) throw bad('base_url is needed to test a connection', 'base_url');
      const stored = settings.endpoint(accountId);
      endpoint = { baseUrl: update.baseUrl, model: update.model!, apiKey: update.apiKey !== undefined ? update.apiKey : (stored?.apiKey ?? null) };
    } else {
      endpoint = settings.endpoint(accountId);
      if (!endpoint) throw new ApiError('language_model_not_configured', 'No language model is configured: PUT /v1/settings/language-model first, or send the settings to test');
    }
    c.header('Cache-Control', 'no-store');
    try {
      const models = await listModels(endpoint);
      return c.json({ ok: true, models, model_listed: models.includes(endpoint.model) });
    } catch (error) {
      if (error instanceof LanguageModelUnreachable) throw new ApiError('language_model_unreachable', error.message);
      if (error instanceof LanguageModelRefused) throw new ApiError('language_model_refused', error.message);
      throw error;
    }
  });
  return app;
}
