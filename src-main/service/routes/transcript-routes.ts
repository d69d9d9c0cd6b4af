/**
 * Extensions for transcriptions that run long: `GET /v1/speech-to-text/{id}/segments?after=N&limit=M` (the segments
 * committed so far, in order, as they are recognised), `POST /v1/speech-to-text/{id}/pause` and `/resume`. Same key
 * and ownership rules as the job routes: another account's job, or a job of another product, is 404 not_found.
 */
import { Hono } from 'hono';
import { ApiError } from '../../common/errors.js';
import { numberQuery, queryOf } from '../http/query-params.js';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../app-env.js';
import { noJobOnRoute } from '../../common/error-messages.js';

/** Segments per page when no limit is given (a 2-hour recording has a few hundred), and the most a page holds. */
export const DEFAULT_SEGMENT_PAGE = 200;
export const MAX_SEGMENT_PAGE = 1000;

function found<T>(value: T | undefined, id: string): T {
  if (value === undefined) throw new ApiError('not_found', noJobOnRoute(id));
  return value;
}

export function transcriptRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/v1/speech-to-text/:jobId/segments', async (c) => {
    const query = queryOf(c.req.url);
    const after = numberQuery(query, 'after', { min: 0, max: Number.MAX_SAFE_INTEGER, integer: true }) ?? null;
    const limit = numberQuery(query, 'limit', { min: 1, max: MAX_SEGMENT_PAGE, integer: true }) ?? DEFAULT_SEGMENT_PAGE;
    const id = c.req.param('jobId');
    return c.json(found(await deps.jobs.listSegments(c.get('owner').accountId, id, after, limit), id));
  });
  app.post('/v1/speech-to-text/:jobId/pause', async (c) => {
    const id = c.req.param('jobId');
    return c.json(found(await deps.jobs.pauseJob(c.get('owner').accountId, 'speech-to-text', id), id));
  });
  app.post('/v1/speech-to-text/:jobId/resume', async (c) => {
    const id = c.req.param('jobId');
    return c.json(found(await deps.jobs.resumeJob(c.get('owner').accountId, 'speech-to-text', id), id));
  });
  return app;
}
