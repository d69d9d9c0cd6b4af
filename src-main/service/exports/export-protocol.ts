/** Messages between the export renderer (service thread) and its export thread (engines/worker/fair-thread.ts carries them). */
import type { CueOptions, TranscriptFormat } from '../../common/transcript-formats.js';
import type { ExportParts } from '../../jobs/transcripts/transcript-export-parts.js';

export interface ExportRequest {
  parts: ExportParts;
  format: TranscriptFormat;
  title: string;
  cues: CueOptions;
}

export interface ExportAnswer {
  bytes: Uint8Array<ArrayBuffer>;
  contentType: string;
}

/** What an export that fails says before its reason. */
export const EXPORT_FAILURE = 'the export could not be made';
