/**
 * The export formats a watch folder can write, each made by the same code as `GET /v1/speech-to-text/{id}/export`
 * (common/transcript-formats.ts). Adding a format the export route offers is one line here.
 */
import type { Job } from '../../common/api-types.js';
import { formatTranscript } from '../../common/transcript-formats.js';

type Render = (job: Job) => Promise<Uint8Array>;

const text = (content: string): Uint8Array => new TextEncoder().encode(content);

/** Format name (also the file extension) → how a succeeded transcription job becomes that file. */
export const WATCH_EXPORTS: Readonly<Record<string, Render>> = {
  txt: async (job) => text(formatTranscript(job.result!, 'txt')),
  srt: async (job) => text(formatTranscript(job.result!, 'srt')),
  vtt: async (job) => text(formatTranscript(job.result!, 'vtt')),
  json: async (job) => text(formatTranscript(job.result!, 'json')),
};

export const WATCH_EXPORT_FORMATS: readonly string[] = Object.keys(WATCH_EXPORTS);
