/**
 * GET /v1/speech-to-text/{job_id}/export?format=txt|srt|vtt|json (extension): the transcript of a succeeded job as
 * a file, with Content-Disposition naming it after the job. Not succeeded yet → 409 conflict; bad format → 400.
 */
import { Hono } from 'hono';
import { ApiError } from '../../common/errors.js';
import { formatTranscript, TRANSCRIPT_CONTENT_TYPES, TRANSCRIPT_FORMATS, type TranscriptFormat } from '../../common/transcript-formats.js';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../app-env.js';
import { queryOf, singleQuery } from '../http/query-params.js';
import { contentDisposition } from './artifact-routes.js';

export function exportRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/v1/speech-to-text/:jobId/export', (c) => {
    const format = singleQuery(queryOf(c.req.url), 'format') ?? 'txt';
    if (!(TRANSCRIPT_FORMATS as readonly string[]).includes(format)) {
      throw new ApiError('invalid_request', `format must be one of ${TRANSCRIPT_FORMATS.join(', ')}`);
    }
    const id = c.req.param('jobId');
    const job = deps.jobs.getJob(c.get('owner').accountId, 'speech-to-text', id);
    if (!job) throw new ApiError('not_found', `no job ${id} on this route`);
    if (job.status !== 'succeeded' || !job.result) throw new ApiError('conflict', `job ${id} is ${job.status}; only a succeeded job has a transcript`);
    const base = (job.name ?? job.id).replace(/\.[A-Za-z0-9]{1,5}$/, '');
    return c.body(formatTranscript(job.result, format as TranscriptFormat), 200, {
      'Content-Type': TRANSCRIPT_CONTENT_TYPES[format as TranscriptFormat],
      'Content-Disposition': contentDisposition(`${base}.${format}`),
    });
  });
  return app;
}
