/**
 * `GET /v1/search?q=&limit=&cursor=` (extension, docs/transcripts.md): library search over the account's
 * transcripts (latest revisions) and job names. Query rules and ranking live in jobs/transcripts.ts and
 * store/fts-query.ts.
 */
import { Hono } from 'hono';
import { MAX_SEARCH_LIMIT } from '../../common/limits.js';
import type { Transcripts } from '../../jobs/transcripts/transcripts.js';
import type { AppEnv } from '../app-env.js';
import { numberQuery, queryOf, singleQuery } from '../http/query-params.js';

export function searchRoutes(transcripts: Transcripts): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/v1/search', async (c) => {
    const query = queryOf(c.req.url);
    const limit = numberQuery(query, 'limit', { min: 1, max: MAX_SEARCH_LIMIT, integer: true });
    return c.json(await transcripts.search(c.get('owner').accountId, singleQuery(query, 'q'), limit, singleQuery(query, 'cursor')));
  });
  return app;
}
