/**
 * The editable transcript of a succeeded transcription (extension, docs/transcripts.md):
 * `GET /v1/speech-to-text/{id}/transcript[?revision=N]` and `PATCH /v1/speech-to-text/{id}/transcript`. The rules
 * (ownership, which jobs have one, compare-and-set on base_revision, word times) live in jobs/transcripts.ts and
 * jobs/transcript-edit.ts; this file reads the request.
 */
import { Hono } from 'hono';
import type { Transcripts } from '../../jobs/transcripts/transcripts.js';
import { parseTranscriptPatch } from '../../jobs/transcripts/transcript-edit.js';
import type { AppEnv } from '../app-env.js';
import { readJsonObject } from '../http/json-body.js';
import { numberQuery, queryOf } from '../http/query-params.js';

const JSON_TYPE = { 'Content-Type': 'application/json' } as const;

export function transcriptRevisionRoutes(transcripts: Transcripts): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/v1/speech-to-text/:jobId/transcript', async (c) => {
    const revision = numberQuery(queryOf(c.req.url), 'revision', { min: 0, max: Number.MAX_SAFE_INTEGER, integer: true }) ?? null;
    return c.body((await transcripts.get(c.get('owner').accountId, c.req.param('jobId'), revision)).json, 200, JSON_TYPE);
  });
  app.patch('/v1/speech-to-text/:jobId/transcript', async (c) => {
    const patch = parseTranscriptPatch(await readJsonObject(c));
    return c.body((await transcripts.edit(c.get('owner').accountId, c.req.param('jobId'), patch)).json, 200, JSON_TYPE);
  });
  return app;
}
