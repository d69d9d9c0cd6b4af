/** The public catalogue: GET /v1/models, /v1/models/{id}, /v1/models/{id}/quote (no key needed). */
import { Hono } from 'hono';
import { ApiError } from '../../common/errors.js';
import { quote } from '../../common/pricing.js';
import { CAPABILITIES, isCapability } from '../../common/products.js';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../app-env.js';
import { publicRoute } from '../http/route-access.js';
import { booleanQuery, numberQuery, queryOf, singleQuery } from '../http/query-params.js';
import { openAiModelFields } from '../openai/openai-models.js';

/** Longest audio a quote is given for (a week; anything larger is a typo). */
export const MAX_QUOTE_SECONDS = 7 * 24 * 3600;

export function modelRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  /** `created` of every record: when this service started (Unix seconds; the catalogue has no other date). */
  const created = Math.floor(Date.now() / 1000);
  app.get('/v1/models', publicRoute, (c) => {
    const query = queryOf(c.req.url);
    const capability = singleQuery(query, 'capability');
    if (capability !== undefined && capability !== '' && !isCapability(capability)) {
      throw new ApiError('invalid_request', `capability must be one of ${CAPABILITIES.join(', ')}`);
    }
    const data = deps.catalogue.list({
      ...(capability ? { capability: capability as (typeof CAPABILITIES)[number] } : {}),
      includeUnavailable: booleanQuery(query, 'include_unavailable'),
    });
    // OpenAI's Model fields (created, owned_by) ride along so its SDKs' models.list() reads the catalogue as is.
    return c.json({ object: 'list', data: data.map((record) => ({ ...record, ...openAiModelFields(record, created) })) });
  });

  app.get('/v1/models/:id', publicRoute, (c) => {
    const record = deps.catalogue.get(c.req.param('id'));
    if (!record) throw new ApiError('not_found', `no model ${c.req.param('id')}`);
    return c.json({ ...record, ...openAiModelFields(record, created) });
  });

  app.get('/v1/models/:id/quote', publicRoute, (c) => {
    const id = c.req.param('id');
    const def = deps.catalogue.resolveModel(id);
    if (!def) throw new ApiError('not_found', `no model ${id}`);
    const query = queryOf(c.req.url);
    const seconds = numberQuery(query, 'seconds', { min: 0, max: MAX_QUOTE_SECONDS });
    if (seconds === undefined) throw new ApiError('invalid_request', `seconds is required: a number of audio seconds, 0..${MAX_QUOTE_SECONDS}`);
    const pricing = deps.catalogue.pricingFor(def);
    const options = (singleQuery(query, 'options') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    const unknown = options.find((o) => !(o in pricing.options) && !(o in ((def.paramsSchema.properties as object | undefined) ?? {})));
    if (unknown) throw new ApiError('invalid_request', `model ${id} has no option "${unknown}"`);
    return c.json(quote(id, pricing, seconds, options));
  });
  return app;
}
