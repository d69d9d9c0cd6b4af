/**
 * GET /v1/speech-to-text/{job_id}/export?format=txt|srt|vtt|json|docx (extension, docs/transcripts.md): the latest
 * revision of a succeeded transcription as a file, with its speakers' names, and Content-Disposition naming it after
 * the job. `txt` and `docx` are laid out for reading (title, speaker turns with times); `srt` and `vtt` take
 * `max_chars_per_line` (default 42) and `max_lines` (default 2). Not succeeded yet → 409 conflict; bad format or
 * subtitle option → 400 invalid_request; another account's job → 404.
 */
import { Hono } from 'hono';
import { ApiError } from '../../common/errors.js';
import { SUBTITLE_LINE_CHARS_RANGE, SUBTITLE_LINES_RANGE } from '../../common/limits.js';
import { toReadableTxt } from '../../common/transcript-readable.js';
import { formatTranscript, TRANSCRIPT_CONTENT_TYPES, type CueOptions, type TranscriptFormat } from '../../common/transcript-formats.js';
import type { Transcripts } from '../../jobs/transcripts.js';
import type { AppEnv } from '../app-env.js';
import { DOCX_CONTENT_TYPE, transcriptDocx } from '../exports/transcript-docx.js';
import { numberQuery, queryOf, singleQuery } from '../http/query-params.js';
import { contentDisposition } from './artifact-routes.js';

export const EXPORT_FORMATS = ['txt', 'srt', 'vtt', 'json', 'docx'] as const;
type ExportFormat = (typeof EXPORT_FORMATS)[number];

export function exportRoutes(transcripts: Transcripts): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/v1/speech-to-text/:jobId/export', async (c) => {
    const query = queryOf(c.req.url);
    const format = (singleQuery(query, 'format') ?? 'txt') as ExportFormat;
    if (!EXPORT_FORMATS.includes(format)) throw new ApiError('invalid_request', `format must be one of ${EXPORT_FORMATS.join(', ')}`);
    const cues: CueOptions = {};
    const lineChars = numberQuery(query, 'max_chars_per_line', { ...SUBTITLE_LINE_CHARS_RANGE, integer: true });
    const lines = numberQuery(query, 'max_lines', { ...SUBTITLE_LINES_RANGE, integer: true });
    if ((lineChars !== undefined || lines !== undefined) && format !== 'srt' && format !== 'vtt') {
      throw new ApiError('invalid_request', 'max_chars_per_line and max_lines apply to the srt and vtt formats only');
    }
    if (lineChars !== undefined) cues.lineChars = lineChars;
    if (lines !== undefined) cues.lines = lines;
    const { job, name, result } = transcripts.forExport(c.get('owner').accountId, c.req.param('jobId'));
    const base = (name ?? job.id).replace(/\.[A-Za-z0-9]{1,5}$/, '');
    const disposition = contentDisposition(`${base}.${format}`);
    if (format === 'docx') {
      const file = await transcriptDocx(result, base);
      return c.body(new Uint8Array(file), 200, { 'Content-Type': DOCX_CONTENT_TYPE, 'Content-Disposition': disposition });
    }
    const text = format === 'txt' ? toReadableTxt(result, base) : formatTranscript(result, format as TranscriptFormat, cues);
    return c.body(text, 200, { 'Content-Type': TRANSCRIPT_CONTENT_TYPES[format as TranscriptFormat], 'Content-Disposition': disposition });
  });
  return app;
}
