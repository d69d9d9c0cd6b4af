/**
 * The thread that lays transcripts out as files (service/exports/export-renderer.ts sends it the work): the latest
 * revision's JSON parsed, assembled (jobs/transcript-export-parts.ts) and rendered (common/transcript-export.ts) —
 * a second or more of CPU for a long transcript's subtitles or Word file, which must not hold up every other
 * request on the service's thread. The bytes go back transferred, not copied.
 */
import { renderTranscript } from '../../common/transcript-export.js';
import { serveThreadRequests } from '../../engines/worker/fair-thread.js';
import { exportResult } from '../../jobs/transcripts/transcript-export-parts.js';
import { EXPORT_FAILURE, type ExportAnswer, type ExportRequest } from './export-protocol.js';

serveThreadRequests<ExportRequest, ExportAnswer>(EXPORT_FAILURE, async (request) => {
  const file = await renderTranscript({ format: request.format, result: exportResult(request.parts), title: request.title, cues: request.cues });
  return { answer: { bytes: file.bytes, contentType: file.contentType }, transfer: [file.bytes.buffer] };
});
