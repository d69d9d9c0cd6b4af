/** Messages between the export renderer (service thread) and its export thread. */
import type { CueOptions, TranscriptFormat } from '../../common/transcript-formats.js';
import type { ExportParts } from '../../jobs/transcripts/transcript-export-parts.js';

export interface ExportRequest {
  id: number;
  parts: ExportParts;
  format: TranscriptFormat;
  title: string;
  cues: CueOptions;
}

export type ExportReply = { id: number; bytes: Uint8Array<ArrayBuffer>; contentType: string } | { id: number; error: string };
