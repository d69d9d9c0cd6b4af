/**
 * The transcript workbench's calls to the service (issue 11: revisions, speakers, library search, exports for
 * people), made through the page's one ApiClient so they carry its key and its typed errors. The JSON shapes are the
 * issue's words exactly; kept here, beside the renderer code that reads them, until the shared client grows typed
 * methods for them.
 */
import type { ApiClient } from '$common/api-client.js';
import type { TranscriptWord } from '$common/api-types.js';

/** One segment of a transcript revision; `speaker` is a speaker id ("SPEAKER_0"), named by `Transcript.speakers`. */
export interface RevisionSegment {
  index: number;
  start: number;
  end: number;
  text: string;
  speaker: string | null;
  words: TranscriptWord[];
}

/** GET /v1/speech-to-text/{id}/transcript: the latest revision (`?revision=0` is the engine's original). */
export interface Transcript {
  job_id: string;
  revision: number;
  /** Speaker id → the name a person gave it; ids without a name are shown as the id. */
  speakers: Record<string, string>;
  segments: RevisionSegment[];
}

/** One segment's change: new text, another speaker (a key of the resulting map, or null for none), or both. */
export interface SegmentPatch {
  index: number;
  text?: string;
  speaker?: string | null;
}

/**
 * PATCH body: makes revision `base_revision + 1`, or 409 `conflict` when the transcript moved on meanwhile. Applied
 * in order: `speakers` (rename, add, or remove with null), `merge_speakers`, `segments`.
 */
export interface TranscriptPatch {
  base_revision: number;
  segments?: SegmentPatch[];
  speakers?: Record<string, string | null>;
  merge_speakers?: { from: string; into: string }[];
}

/** One hit of GET /v1/search: where in which job, with a snippet of the matching text. */
export interface SearchHit {
  job_id: string;
  name: string | null;
  /** null when the job's name matched rather than a segment. */
  segment_index: number | null;
  start: number | null;
  end: number | null;
  /** HTML-safe text with the matches in <mark>…</mark> (draw it with snippetParts, never as HTML). */
  snippet: string;
}

export interface SearchPage {
  object: 'list';
  data: SearchHit[];
  next_cursor: string | null;
}

/** Every export the service makes of a transcript. */
export type ExportFormat = 'txt' | 'docx' | 'srt' | 'vtt' | 'json';

/** Subtitle line options of SRT and VTT exports; null leaves the service's default. */
export interface SubtitleLines {
  max_chars_per_line: number | null;
  max_lines: number | null;
}

const transcriptPath = (jobId: string): string => `/v1/speech-to-text/${encodeURIComponent(jobId)}/transcript`;

export function getTranscript(api: ApiClient, jobId: string, signal?: AbortSignal): Promise<Transcript> {
  return api.request('GET', transcriptPath(jobId), undefined, { signal });
}

/** The new revision the service made. */
export async function patchTranscript(api: ApiClient, jobId: string, patch: TranscriptPatch): Promise<Transcript> {
  return api.request('PATCH', transcriptPath(jobId), patch);
}

export function searchLibrary(api: ApiClient, q: string, options: { limit?: number; cursor?: string | null; signal?: AbortSignal } = {}): Promise<SearchPage> {
  const params = new URLSearchParams({ q });
  if (options.limit) params.set('limit', String(options.limit));
  if (options.cursor) params.set('cursor', options.cursor);
  return api.request('GET', `/v1/search?${params.toString()}`, undefined, { signal: options.signal });
}

/** The export query: subtitle line options only for the subtitle formats, and only those set. */
export function exportQuery(format: ExportFormat, lines: SubtitleLines | null = null): string {
  const params = new URLSearchParams({ format });
  if (lines && (format === 'srt' || format === 'vtt')) {
    if (lines.max_chars_per_line !== null) params.set('max_chars_per_line', String(lines.max_chars_per_line));
    if (lines.max_lines !== null) params.set('max_lines', String(lines.max_lines));
  }
  return params.toString();
}

export function exportTranscript(api: ApiClient, jobId: string, format: ExportFormat, lines: SubtitleLines | null = null): Promise<Response> {
  return api.raw('GET', `/v1/speech-to-text/${encodeURIComponent(jobId)}/export?${exportQuery(format, lines)}`);
}
