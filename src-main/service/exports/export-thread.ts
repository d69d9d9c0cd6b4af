/**
 * The thread that lays transcripts out as files (service/exports/export-renderer.ts sends it the work): the latest
 * revision's JSON parsed, assembled (jobs/transcript-export-parts.ts) and rendered (common/transcript-export.ts) —
 * a second or more of CPU for a long transcript's subtitles or Word file, which must not hold up every other
 * request on the service's thread. The bytes go back transferred, not copied.
 */
import { parentPort } from 'node:worker_threads';
import { exportResult } from '../../jobs/transcripts/transcript-export-parts.js';
import { renderTranscript } from '../../common/transcript-export.js';
import type { ExportReply, ExportRequest } from './export-protocol.js';

const port = parentPort!;
port.on('message', (request: ExportRequest) => {
  void (async (): Promise<void> => {
    try {
      const result = exportResult(request.parts);
      const file = await renderTranscript({ format: request.format, result, title: request.title, cues: request.cues });
      const reply: ExportReply = { id: request.id, bytes: file.bytes, contentType: file.contentType };
      port.postMessage(reply, [file.bytes.buffer]);
    } catch (error) {
      const reply: ExportReply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
      port.postMessage(reply);
    }
  })();
});
