import type { AiActionName } from './ai-types.js';
import type { SegmentFlag } from './api-types.js';

/**
 * Wire types of the transcript workbench (extensions, docs/transcripts.md): the revisions of a transcription's text
 * (`GET`/`PATCH /v1/speech-to-text/{id}/transcript`) and library search (`GET /v1/search`). Shared by the service,
 * the typed client and the renderer. The job's own `result` stays the engine's output; these carry the edits.
 */

/** A word of a revision: its text and times in seconds from the start of the recording. */
export interface RevisionWord {
  word: string;
  start: number;
  end: number;
  /**
   * How sure the recognizer was of this word (0..1, docs/transcripts.md "Confidence"); absent when the engine scores
   * no words, and for a word an edit wrote (a person typed it).
   */
  confidence?: number;
}

export interface RevisionSegment {
  /**
   * 0 … n−1 in time order; an index names the same stretch of audio in every revision of the job, until a range is
   * re-transcribed (the segments after it are numbered again: docs/transcripts.md).
   */
  index: number;
  start: number;
  end: number;
  /** '' when an edit removed every word. */
  text: string;
  /** A key of the revision's `speakers` map ("SPEAKER_0"), or null when no speaker is known. */
  speaker: string | null;
  /** Always present; times are the engine's, spread over the segment where the engine gave none or an edit changed them. */
  words: RevisionWord[];
  /**
   * Why the recognizer's text here may be wrong (the guardrails' flags of the engine's segment); absent when nothing
   * is doubtful. An edit of the segment's text clears them: a person has read it.
   */
  flags?: SegmentFlag[];
}

export interface TranscriptRevision {
  job_id: string;
  /** 0 is the engine's original, kept forever; each edit makes the next number. */
  revision: number;
  /** The newest revision of the job (what an edit's base_revision must name). */
  latest_revision: number;
  created_at: string;
  /** Speaker key → the name people see. Every key a segment uses is here; revision 0 maps each key to itself. */
  speakers: Record<string, string>;
  segments: RevisionSegment[];
}

/** One segment's change: new text, a new speaker (a key of the resulting map, or null for none), or both. */
export interface SegmentPatch {
  index: number;
  text?: string;
  speaker?: string | null;
}

/** Every segment of speaker `from` becomes `into`'s; `from` leaves the map. */
export interface SpeakerMerge {
  from: string;
  into: string;
}

/**
 * PATCH /v1/speech-to-text/{id}/transcript. Applied in this order: `speakers` (rename, add, or remove with null),
 * `merge_speakers`, then `segments`. At least one of the three must be given.
 */
export interface TranscriptPatch {
  base_revision: number;
  segments?: SegmentPatch[];
  speakers?: Record<string, string | null>;
  merge_speakers?: SpeakerMerge[];
  /**
   * "Not X" corrections (docs/speakers.md): speaker keys whose name is wrong. Each goes back to its key in this
   * recording, and the account's profile of the name it had keeps its voice as one it must not match again.
   */
  not_speakers?: string[];
}

/**
 * POST /v1/speech-to-text/{id}/retranscribe: seconds into the recording (snapped outward to segment edges), the
 * on-device model to run the range with, and its params. The answer is the range's job; when it succeeds its result
 * replaces the range as the transcript's next revision (docs/transcripts.md).
 */
export interface RetranscribeBody {
  start: number;
  end: number;
  model: string;
  params?: Record<string, unknown>;
}

/**
 * One search result: a segment of a job's latest revision, the job's name (segment_index, start and end null), or a
 * part of a language-model action's answer on the job (`ai` set; segment_index, start and end null).
 * `snippet` is HTML-safe text: the matched words are wrapped in `<mark>`…`</mark>`, every other `<`, `>`, `&` and
 * `"` is escaped, and `…` marks text left out.
 */
export interface SearchHit {
  /** The transcription (for an AI hit: the one the action was run on). */
  job_id: string;
  name: string | null;
  segment_index: number | null;
  start: number | null;
  end: number | null;
  snippet: string;
  /**
   * The first matching word(s) in the segment: their indexes in the segment's `words` and when they are said, so a
   * player opens there and highlights them (docs/transcripts.md); null for a name or an AI action's answer.
   */
  match: SearchMatch | null;
  /** The AI action whose answer matched (its job and which action); null for the transcript's own text and name. */
  ai: { job_id: string; action: AiActionName } | null;
}

export interface SearchMatch {
  /** The first matched word's index in the segment's `words`. */
  word_index: number;
  /** How many words the match takes (a phrase: several). */
  word_count: number;
  /** Seconds from the recording's start: the first matched word's start and the last one's end. */
  start: number;
  end: number;
}

export interface SearchList {
  object: 'list';
  data: SearchHit[];
  /** Pass as `cursor` (with the same q) for the next page; null on the last page. */
  next_cursor: string | null;
}
