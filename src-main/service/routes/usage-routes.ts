/**
 * GET /v1/usage?from=&to=&group_by=day|model|product (key required): the key's account's charges from the ledger,
 * summed (service/usage/usage-report.ts). `from` and `to` are days, months or ISO 8601 times (http/query-params.ts
 * instantQuery): `from` is inclusive, `to` exclusive, and a day or month given as `to` is taken in whole. Defaults:
 * from the start of this month (UTC) to the end of today (UTC), grouped by day. Days are UTC days.
 */
import { unknownFieldMessage } from '../../common/unknown-fields.js';
import { Hono } from 'hono';
import type { UsageGroupBy } from '../../common/api-types.js';
import { ApiError } from '../../common/errors.js';
import { utcMonth } from '../../jobs/money/spending-cap.js';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../app-env.js';
import { instantQuery, queryOf, singleQuery } from '../http/query-params.js';
import { USAGE_GROUPS, usageReport } from '../usage/usage-report.js';

const PARAMETERS = ['from', 'to', 'group_by'];

export function usageRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/v1/usage', async (c) => {
    const query = queryOf(c.req.url);
    const unknown = unknownFieldMessage(Object.fromEntries(query.entries()), PARAMETERS, '', 'GET /v1/usage');
    if (unknown) throw new ApiError('unsupported_param', unknown.replace('unknown field', 'unknown query parameter'));
    const groupBy = singleQuery(query, 'group_by') || USAGE_GROUPS[0]!;
    if (!(USAGE_GROUPS as readonly string[]).includes(groupBy)) {
      throw new ApiError('invalid_request', `group_by must be one of ${USAGE_GROUPS.join(', ')}, got ${JSON.stringify(groupBy)}`);
    }
    const now = deps.store.clock();
    const from = instantQuery(query, 'from', 'start') ?? new Date(utcMonth(now).start);
    const to = instantQuery(query, 'to', 'end') ?? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
    // A day or month given as `to` ends where it ends: from=2026-06-02&to=2026-06-01 is an empty, reversed range.
    if (from.getTime() >= to.getTime()) {
      throw new ApiError('invalid_request', `from (${from.toISOString()}) is not before to (${to.toISOString()}); give a from before the to`);
    }
    const sums = await deps.store.repos.ledger.usage({ accountId: c.get('owner').accountId, fromIso: from.toISOString(), toIso: to.toISOString(), groupBy: groupBy as UsageGroupBy });
    c.header('Cache-Control', 'no-store');
    return c.json(usageReport(sums, { from, to, groupBy: groupBy as UsageGroupBy }));
  });
  return app;
}
