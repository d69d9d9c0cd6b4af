/**
 * Revision 0 of a transcription: the engine's original, in the revision shape (every segment with its speaker key
 * and its words). Built from the richest source the job has: the result's segments and words (with speakers, when
 * diarization ran), else its committed segment rows, else its text as one segment. Built when the job succeeds
 * (the job engine passes a word-level result assembled from the rows and the speaker turns, whatever
 * response_format the job asked for), or on first use for jobs that succeeded before revisions existed.
 */
import type { JobResult, TranscriptWord } from '../common/api-types.js';
import type { RevisionSegment, RevisionWord } from '../common/transcript-types.js';
import type { SegmentRow } from '../store/segments-repo.js';

export interface RevisionBody {
  speakers: Record<string, string>;
  segments: RevisionSegment[];
}

interface SourceSegment {
  start: number;
  end: number;
  text: string;
  speaker: string | null;
  words: TranscriptWord[] | null;
}

const round3 = (seconds: number): number => Math.round(seconds * 1000) / 1000;

export function tokensOf(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

/** Words for `tokens` spread over [start, end] in proportion to their length (no timings known). */
export function spreadWords(tokens: readonly string[], start: number, end: number): RevisionWord[] {
  const span = Math.max(0, end - start);
  const total = tokens.reduce((n, t) => n + t.length, 0) || 1;
  let at = 0;
  return tokens.map((word) => {
    const from = start + (span * at) / total;
    at += word.length;
    return { word, start: round3(from), end: round3(start + (span * at) / total) };
  });
}

function sources(result: JobResult | null, rows: readonly SegmentRow[]): SourceSegment[] {
  if (result?.segments?.length) {
    return result.segments.map((s) => ({ start: s.start, end: s.end, text: s.text, speaker: s.speaker ?? null, words: null }));
  }
  const spoken = rows.filter((row) => row.text.trim() !== '');
  if (spoken.length > 0) {
    return spoken.map((row) => ({
      start: row.start_seconds,
      end: row.end_seconds,
      text: row.text,
      speaker: null,
      words: row.words_json === null ? null : (JSON.parse(row.words_json) as TranscriptWord[]),
    }));
  }
  const text = result?.text?.trim() ?? '';
  if (!text) return [];
  return [{ start: 0, end: result?.duration ?? Math.max(1, text.length / 15), text, speaker: null, words: null }];
}

/** Each word goes to the segment its middle falls in (the nearest one when it falls between segments). */
function assignWords(segments: SourceSegment[], words: readonly TranscriptWord[]): TranscriptWord[][] {
  const out: TranscriptWord[][] = segments.map(() => []);
  for (const word of words) {
    const mid = (word.start + word.end) / 2;
    let best = -1;
    let distance = Infinity;
    segments.forEach((segment, i) => {
      const d = mid < segment.start ? segment.start - mid : mid > segment.end ? mid - segment.end : 0;
      if (d < distance) [best, distance] = [i, d];
    });
    if (best >= 0) out[best]!.push(word);
  }
  return out;
}

export function originalRevision(result: JobResult | null, rows: readonly SegmentRow[]): RevisionBody {
  const list = sources(result, rows);
  const pool = result?.words?.length ? result.words : list.every((s) => s.words === null) ? rows.flatMap((r) => (r.words_json ? (JSON.parse(r.words_json) as TranscriptWord[]) : [])) : [];
  const assigned = pool.length > 0 && list.every((s) => s.words === null) ? assignWords(list, pool) : null;
  const speakers: Record<string, string> = {};
  const segments = list.map((source, index): RevisionSegment => {
    const text = source.text.replace(/\s+/g, ' ').trim();
    const timed = (source.words ?? assigned?.[index] ?? [])
      .map((w) => ({ word: w.word.trim(), start: round3(w.start), end: round3(w.end) }))
      .filter((w) => w.word !== '');
    if (source.speaker) speakers[source.speaker] = source.speaker;
    return {
      index,
      start: round3(source.start),
      end: round3(source.end),
      text,
      speaker: source.speaker,
      words: timed.length > 0 ? timed : spreadWords(tokensOf(text), source.start, source.end),
    };
  });
  return { speakers, segments };
}
