/** The public catalogue: GET /v1/models, /v1/models/{id}, /v1/models/{id}/quote (no key needed). */
import { Hono } from 'hono';
import { ApiError } from '../../common/errors.js';
import { quote } from '../../common/pricing.js';
import { CAPABILITIES, isCapability } from '../../common/products.js';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../app-env.js';
import { openAiModelFields } from '../openai/openai-models.js';

/** Longest audio a quote is given for (a week; anything larger is a typo). */
export const MAX_QUOTE_SECONDS = 7 * 24 * 3600;

function booleanQuery(value: string | undefined, name: string): boolean {
  if (value === undefined || value === '' || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  throw new ApiError('invalid_request', `${name} must be true or false`);
}

export function modelRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  /** `created` of every record: when this service started (Unix seconds; the catalogue has no other date). */
  const created = Math.floor(Date.now() / 1000);
  app.get('/v1/models', (c) => {
    const capability = c.req.query('capability');
    if (capability !== undefined && capability !== '' && !isCapability(capability)) {
      throw new ApiError('invalid_request', `capability must be one of ${CAPABILITIES.join(', ')}`);
    }
    const data = deps.catalogue.list({
      ...(capability ? { capability: capability as (typeof CAPABILITIES)[number] } : {}),
      includeUnavailable: booleanQuery(c.req.query('include_unavailable'), 'include_unavailable'),
    });
    // OpenAI's Model fields (created, owned_by) ride along so its SDKs' models.list() reads the catalogue as is.
    return c.json({ object: 'list', data: data.map((record) => ({ ...record, ...openAiModelFields(record, created) })) });
  });

  app.get('/v1/models/:id', (c) => {
    const record = deps.catalogue.get(c.req.param('id'));
    if (!record) throw new ApiError('not_found', `no model ${c.req.param('id')}`);
    return c.json({ ...record, ...openAiModelFields(record, created) });
  });

  app.get('/v1/models/:id/quote', (c) => {
    const id = c.req.param('id');
    const def = deps.catalogue.resolveModel(id);
    if (!def) throw new ApiError('not_found', `no model ${id}`);
    const raw = c.req.query('seconds');
    const seconds = raw === undefined || raw.trim() === '' ? NaN : Number(raw);
    if (!Number.isFinite(seconds) || seconds < 0 || seconds > MAX_QUOTE_SECONDS) {
      throw new ApiError('invalid_request', `seconds must be a number of audio seconds, 0..${MAX_QUOTE_SECONDS}`);
    }
    const pricing = deps.catalogue.pricingFor(def);
    const options = (c.req.query('options') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    const unknown = options.find((o) => !(o in pricing.options) && !(o in ((def.paramsSchema.properties as object | undefined) ?? {})));
    if (unknown) throw new ApiError('invalid_request', `model ${id} has no option "${unknown}"`);
    return c.json(quote(id, pricing, seconds, options));
  });
  return app;
}
