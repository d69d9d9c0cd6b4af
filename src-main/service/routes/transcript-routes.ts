/**
 * Extensions for transcriptions that run long: `GET /v1/speech-to-text/{id}/segments?after=N&limit=M` (the segments
 * committed so far, in order, as they are recognised), `POST /v1/speech-to-text/{id}/pause` and `/resume`. Same key
 * and ownership rules as the job routes: another account's job, or a job of another product, is 404 not_found.
 */
import { Hono, type Context } from 'hono';
import { ApiError } from '../../common/errors.js';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../app-env.js';

/** Segments per page when no limit is given (a 2-hour recording has a few hundred), and the most a page holds. */
export const DEFAULT_SEGMENT_PAGE = 200;
export const MAX_SEGMENT_PAGE = 1000;

function integerQuery(c: Context<AppEnv>, name: string, min: number, max: number): number | null {
  const raw = c.req.query(name);
  if (raw === undefined) return null;
  const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new ApiError('invalid_request', max === Number.MAX_SAFE_INTEGER ? `${name} must be an integer >= ${min}` : `${name} must be an integer ${min}..${max}`);
  }
  return value;
}

function found<T>(value: T | undefined, id: string): T {
  if (value === undefined) throw new ApiError('not_found', `no job ${id} on this route`);
  return value;
}

export function transcriptRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/v1/speech-to-text/:jobId/segments', (c) => {
    const after = integerQuery(c, 'after', 0, Number.MAX_SAFE_INTEGER);
    const limit = integerQuery(c, 'limit', 1, MAX_SEGMENT_PAGE) ?? DEFAULT_SEGMENT_PAGE;
    const id = c.req.param('jobId');
    return c.json(found(deps.jobs.listSegments(c.get('owner').accountId, id, after, limit), id));
  });
  app.post('/v1/speech-to-text/:jobId/pause', (c) => {
    const id = c.req.param('jobId');
    return c.json(found(deps.jobs.pauseJob(c.get('owner').accountId, 'speech-to-text', id), id));
  });
  app.post('/v1/speech-to-text/:jobId/resume', (c) => {
    const id = c.req.param('jobId');
    return c.json(found(deps.jobs.resumeJob(c.get('owner').accountId, 'speech-to-text', id), id));
  });
  return app;
}
