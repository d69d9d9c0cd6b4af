/**
 * The transcript workbench's calls to the service (issue 11: revisions, speakers, library search, exports for
 * people; docs/transcripts.md), made through the page's one ApiClient so they carry its key and its typed errors.
 * The wire types are the shared ones (common/transcript-types.ts).
 */
import type { ApiClient } from '$common/api-client.js';
import type { Job } from '$common/api-types.js';
import type { RetranscribeBody, RevisionSegment, SearchHit, SearchList, SegmentPatch, TranscriptPatch, TranscriptRevision } from '$common/transcript-types.js';

export type { RetranscribeBody, RevisionSegment, SearchHit, SearchList, SegmentPatch, TranscriptPatch };
/** GET /v1/speech-to-text/{id}/transcript: a revision (the latest unless asked), its speakers' names and segments. */
export type Transcript = TranscriptRevision;

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

/** Runs a range of the transcript again (the service snaps it to segment edges); answers the range's job. */
export function retranscribeRange(api: ApiClient, jobId: string, body: RetranscribeBody): Promise<Job> {
  return api.request('POST', `/v1/speech-to-text/${encodeURIComponent(jobId)}/retranscribe`, body);
}

export function searchLibrary(api: ApiClient, q: string, options: { limit?: number; cursor?: string | null; signal?: AbortSignal } = {}): Promise<SearchList> {
  const params = new URLSearchParams({ q });
  if (options.limit) params.set('limit', String(options.limit));
  if (options.cursor) params.set('cursor', options.cursor);
  return api.request('GET', `/v1/search?${params.toString()}`, undefined, { signal: options.signal });
}

/**
 * The export query: subtitle line options only for the subtitle formats, and only those set; filler words left out
 * when asked (the stored transcript keeps them).
 */
export function exportQuery(format: ExportFormat, lines: SubtitleLines | null = null, removeFillers = false): string {
  const params = new URLSearchParams({ format });
  if (removeFillers) params.set('remove_fillers', 'true');
  if (lines && (format === 'srt' || format === 'vtt')) {
    if (lines.max_chars_per_line !== null) params.set('max_chars_per_line', String(lines.max_chars_per_line));
    if (lines.max_lines !== null) params.set('max_lines', String(lines.max_lines));
  }
  return params.toString();
}

export function exportTranscript(api: ApiClient, jobId: string, format: ExportFormat, lines: SubtitleLines | null = null, removeFillers = false): Promise<Response> {
  return api.raw('GET', `/v1/speech-to-text/${encodeURIComponent(jobId)}/export?${exportQuery(format, lines, removeFillers)}`);
}
