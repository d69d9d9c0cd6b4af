/**
 * A speech-to-text job's segments in their three shapes: as the engine sends them (RecognizedSegment), as the store
 * keeps them (SegmentRow, the checkpoints), and as the API shows them (SegmentView), plus the transcript built from
 * the rows. A hosted job commits no checkpoints of its own: its segments are written from the hosted result when it
 * succeeds, so the segments route answers the same way for every transcription.
 */
import type { JobResult, SegmentFlag, SegmentView, TranscriptWord } from '../../common/api-types.js';
import { SEGMENT_FLAGS } from '../../engines/asr/segment-guardrails.js';
import { assembleTranscript, type TranscriptPlan } from '../../engines/asr/transcript-assembly.js';
import type { TranscriptResult } from '../../engines/asr/transcript.js';
import type { RecognizedSegment, ResumePoint } from '../../engines/engine-types.js';
import type { SegmentRow } from '../../store/segments-repo.js';
import { splitIntoSentences } from './sentence-segments.js';

/** A segment the worker sent, checked (it crossed a process boundary) and shaped as a row. */
export function segmentRow(jobId: string, segment: RecognizedSegment, createdAt: string): SegmentRow {
  const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
  if (!Number.isInteger(segment.index) || segment.index < 0 || !finite(segment.start) || !finite(segment.end) || typeof segment.text !== 'string') {
    throw new Error(`malformed segment from the engine: ${JSON.stringify(segment).slice(0, 200)}`);
  }
  // Only the flags this build knows, once each (it crossed a process boundary).
  const measured = Array.isArray(segment.flags) ? SEGMENT_FLAGS.filter((flag) => segment.flags!.includes(flag)) : [];
  return {
    job_id: jobId,
    idx: segment.index,
    start_seconds: segment.start,
    end_seconds: segment.end,
    resume_seconds: finite(segment.resumeAt) ? segment.resumeAt : segment.end,
    text: segment.text,
    words_json: segment.words && segment.words.length > 0 ? JSON.stringify(segment.words) : null,
    language: segment.language ?? null,
    created_at: createdAt,
    ...(measured.length > 0 ? { flags_json: JSON.stringify(measured) } : {}),
  };
}

function flagsOf(row: SegmentRow): SegmentFlag[] {
  if (!row.flags_json) return [];
  try {
    const list = JSON.parse(row.flags_json) as unknown;
    return Array.isArray(list) ? SEGMENT_FLAGS.filter((flag) => list.includes(flag)) : [];
  } catch {
    return [];
  }
}

function wordsOf(row: SegmentRow): TranscriptWord[] | undefined {
  return row.words_json === null ? undefined : (JSON.parse(row.words_json) as TranscriptWord[]);
}

export function resumePointOf(row: SegmentRow | undefined): ResumePoint | null {
  return row ? { index: row.idx, seconds: row.resume_seconds, ...(row.language ? { language: row.language } : {}) } : null;
}

/**
 * The finished job's result, built from its committed segments with the engine's plan, in sentence-sized segments
 * (sentence-segments.ts): assembled with every word, cut into sentences, then given the shape the job asked for.
 */
export function transcriptFromRows(rows: readonly SegmentRow[], plan: TranscriptPlan): TranscriptResult {
  const pieces = rows.map((row) => {
    const words = wordsOf(row);
    const flags = flagsOf(row);
    return { start: row.start_seconds, end: row.end_seconds, text: row.text, language: row.language, ...(words ? { words } : {}), ...(flags.length ? { flags } : {}) };
  });
  const options = plan.options;
  if (options.responseFormat === 'json') return assembleTranscript(pieces, options, plan.speakerTurns, plan.speakerNames);
  const detailed = { ...options, responseFormat: 'verbose_json' as const, granularity: 'word' as const };
  const full = splitIntoSentences(assembleTranscript(pieces, detailed, plan.speakerTurns, plan.speakerNames));
  if (options.granularity === 'word') return full;
  return { ...full, segments: options.granularity === 'none' ? [] : full.segments, words: [] };
}

/** What GET /v1/speech-to-text/{id}/segments shows of a row (times rounded to the millisecond, as in results). */
export function segmentView(row: SegmentRow): SegmentView {
  const round3 = (seconds: number): number => Math.round(seconds * 1000) / 1000;
  const view: SegmentView = { index: row.idx, start: round3(row.start_seconds), end: round3(row.end_seconds), text: row.text.replace(/\s+/g, ' ').trim() };
  const words = wordsOf(row);
  if (words) view.words = words.map((w) => ({ word: w.word, start: round3(w.start), end: round3(w.end), ...(w.confidence === undefined ? {} : { confidence: w.confidence }) }));
  return view;
}

/** Rows for a hosted transcription's result: its segments, each with the words that start inside it. */
export function rowsFromResult(jobId: string, result: JobResult, createdAt: string): SegmentRow[] {
  const words = result.words ?? [];
  return (result.segments ?? []).map((segment, idx) => {
    const inside = words.filter((w) => w.start >= segment.start && w.start < segment.end);
    return {
      job_id: jobId,
      idx,
      start_seconds: segment.start,
      end_seconds: segment.end,
      resume_seconds: segment.end,
      text: segment.text,
      words_json: inside.length > 0 ? JSON.stringify(inside.map(({ word, start, end, confidence }) => ({ word, start, end, ...(confidence === undefined ? {} : { confidence }) }))) : null,
      language: result.language ?? null,
      created_at: createdAt,
    };
  });
}
