/**
 * The one way a transcript becomes a file. The export route (`GET /v1/speech-to-text/{id}/export`), the watch
 * folders and so the CLI (which calls that route) all render here, from the latest revision with its speakers'
 * names (jobs/transcripts.ts `forExport`), so a file written by a watch folder is byte for byte the one the route
 * gives. `txt` and `docx` are laid out for reading under a title; `srt`, `vtt` and `json` for players and programs.
 */
import type { JobResult } from './api-types.js';
import { toJson, toSrt, toVtt, TRANSCRIPT_CONTENT_TYPES, type CueOptions, type TranscriptFormat } from './transcript-formats.js';
import { singleLine, toReadableTxt } from './transcript-readable.js';

export interface TranscriptExportInput {
  format: TranscriptFormat;
  /** The latest revision as a JobResult whose speakers are names (Transcripts.forExport). */
  result: JobResult;
  /** Heads the txt and docx exports; exportTitle() makes it from the job's name. */
  title: string;
  /** Cue limits of srt and vtt (defaults: CUE_LIMITS); the other formats have no cues and ignore them. */
  cues?: CueOptions;
}

export interface RenderedTranscript {
  bytes: Uint8Array<ArrayBuffer>;
  contentType: string;
}

/**
 * What an export is called and titled: the job's name (else its id) without a file extension, on one line — a name
 * is any label a client sent, and a CR or LF in it must not start a new line in a TXT or DOCX title.
 */
export function exportTitle(name: string | null, jobId: string): string {
  const title = singleLine(name ?? '').replace(/\.[A-Za-z0-9]{1,5}$/, '');
  return title === '' ? jobId : title;
}

function textOf(format: Exclude<TranscriptFormat, 'docx'>, result: JobResult, title: string, cues: CueOptions): string {
  switch (format) {
    case 'txt':
      return toReadableTxt(result, title);
    case 'srt':
      return toSrt(result, cues);
    case 'vtt':
      return toVtt(result, cues);
    case 'json':
      return toJson(result);
  }
}

/** The file's bytes and Content-Type for one format. */
export async function renderTranscript(input: TranscriptExportInput): Promise<RenderedTranscript> {
  const { format, result, title, cues = {} } = input;
  const contentType = TRANSCRIPT_CONTENT_TYPES[format];
  if (format === 'docx') {
    // The docx package is large: loaded with the first Word export (a chunk of its own in the page).
    const { transcriptDocx } = await import('./transcript-docx.js');
    return { bytes: await transcriptDocx(result, title), contentType };
  }
  return { bytes: new TextEncoder().encode(textOf(format, result, title, cues)), contentType };
}
