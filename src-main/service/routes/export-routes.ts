/**
 * GET /v1/speech-to-text/{job_id}/export?format=txt|srt|vtt|json|docx (extension, docs/transcripts.md): the latest
 * revision of a succeeded transcription as a file, with its speakers' names, and Content-Disposition naming it after
 * the job. Rendered by common/transcript-export.ts on the export thread, as the watch folders' files are. `srt` and `vtt` take
 * `max_chars_per_line` (default 42) and `max_lines` (default 2). Not succeeded yet → 409 conflict; bad format or
 * subtitle option → 400 invalid_request; another account's job → 404. `remove_fillers=true` leaves filler words
 * ("uh", "um" in the transcript's language) out of the file, never out of the stored transcript.
 */
import { Hono } from 'hono';
import { ApiError } from '../../common/errors.js';
import { SUBTITLE_LINE_CHARS_RANGE, SUBTITLE_LINES_RANGE } from '../../common/limits.js';
import { exportTitle } from '../../common/transcript-export.js';
import { SUBTITLE_FORMATS, TRANSCRIPT_FORMATS, type CueOptions, type TranscriptFormat } from '../../common/transcript-formats.js';
import type { Transcripts } from '../../jobs/transcripts/transcripts.js';
import type { AppEnv } from '../app-env.js';
import { booleanQuery, numberQuery, queryOf, singleQuery } from '../http/query-params.js';
import { contentDisposition } from '../http/file-response.js';
import type { ExportRenderer } from '../exports/export-renderer.js';
import { formatOneOf } from '../../common/error-messages.js';

export function exportRoutes(transcripts: Transcripts, exports: ExportRenderer): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/v1/speech-to-text/:jobId/export', async (c) => {
    const query = queryOf(c.req.url);
    const format = (singleQuery(query, 'format') ?? 'txt') as TranscriptFormat;
    if (!TRANSCRIPT_FORMATS.includes(format)) throw new ApiError('invalid_request', formatOneOf(TRANSCRIPT_FORMATS));
    const cues: CueOptions = {};
    const lineChars = numberQuery(query, 'max_chars_per_line', { ...SUBTITLE_LINE_CHARS_RANGE, integer: true });
    const lines = numberQuery(query, 'max_lines', { ...SUBTITLE_LINES_RANGE, integer: true });
    if ((lineChars !== undefined || lines !== undefined) && !SUBTITLE_FORMATS.includes(format)) {
      throw new ApiError('invalid_request', `max_chars_per_line and max_lines apply to the ${SUBTITLE_FORMATS.join(' and ')} formats only`);
    }
    if (lineChars !== undefined) cues.lineChars = lineChars;
    if (lines !== undefined) cues.lines = lines;
    const fillers = booleanQuery(query, 'remove_fillers');
    const accountId = c.get('owner').accountId;
    const found = await transcripts.forExport(accountId, c.req.param('jobId'));
    const { job, name } = found;
    const parts = fillers ? { ...found.parts, removeFillers: true } : found.parts;
    const title = exportTitle(name, job.id);
    // Laid out on the export thread: seconds of CPU for a long transcript (exports/export-renderer.ts).
    const file = await exports.render(accountId, { parts, format, title, cues });
    return c.body(file.bytes, 200, { 'Content-Type': file.contentType, 'Content-Disposition': contentDisposition(`${title}.${format}`) });
  });
  return app;
}
