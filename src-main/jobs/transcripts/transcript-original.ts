/**
 * Revision 0 of a transcription: the engine's original, in the revision shape (every segment with its speaker key
 * and its words). Built from the richest source the job has: the result's segments and words (with speakers, when
 * diarization ran), else its committed segment rows, else its text as one segment. Built when the job succeeds
 * (the job engine passes a word-level result assembled from the rows and the speaker turns, whatever
 * response_format the job asked for), or on first use for jobs that succeeded before revisions existed.
 */
import type { JobResult, SegmentFlag, TranscriptWord } from '../../common/api-types.js';
import type { RevisionSegment, RevisionWord } from '../../common/transcript-types.js';
import type { SegmentRow } from '../../store/segments-repo.js';

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
  flags?: SegmentFlag[];
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
    return result.segments.map((s) => ({ start: s.start, end: s.end, text: s.text, speaker: s.speaker ?? null, words: null, ...(s.flags?.length ? { flags: [...s.flags] } : {}) }));
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

/**
 * Each word goes to the segment its middle falls in (the nearest one when it falls between segments; of several, the
 * first). In O((segments + words) log segments): revision 0 of a ten-hour transcript (6,000 segments, 72,000 words) is
 * recorded when its job succeeds, and comparing every word with every segment took five seconds of the service's
 * thread there (trust review 2, bounded work per request).
 */
function assignWords(segments: SourceSegment[], words: readonly TranscriptWord[]): TranscriptWord[][] {
  const out: TranscriptWord[][] = segments.map(() => []);
  if (segments.length === 0) return out;
  const order = segments.map((_, i) => i).sort((a, b) => segments[a]!.start - segments[b]!.start || a - b);
  // The furthest end among the first j+1 segments by start (and which one it is): no earlier segment reaches further.
  const reach: number[] = [];
  const reacher: number[] = [];
  for (const [j, i] of order.entries()) {
    const prev = j > 0 ? reach[j - 1]! : -Infinity;
    const end = segments[i]!.end;
    reach.push(Math.max(prev, end));
    reacher.push(j === 0 || end > prev ? i : end < prev ? reacher[j - 1]! : Math.min(reacher[j - 1]!, i));
  }
  for (const word of words) {
    const mid = (word.start + word.end) / 2;
    // The last segment (by start) that starts at or before the word's middle.
    let lo = 0;
    let hi = order.length - 1;
    let last = -1;
    while (lo <= hi) {
      const m = (lo + hi) >> 1;
      if (segments[order[m]!]!.start <= mid) {
        last = m;
        lo = m + 1;
      } else hi = m - 1;
    }
    let best = -1;
    for (let j = last; j >= 0 && reach[j]! >= mid; j -= 1) {
      const i = order[j]!;
      if (segments[i]!.end >= mid && (best === -1 || i < best)) best = i;
    }
    if (best === -1) {
      // Between segments: the one ending closest before, or starting closest after (the first on a tie).
      const before = last >= 0 ? { i: reacher[last]!, d: mid - reach[last]! } : null;
      const after = last + 1 < order.length ? { i: order[last + 1]!, d: segments[order[last + 1]!]!.start - mid } : null;
      const pick = !after || (before && (before.d < after.d || (before.d === after.d && before.i < after.i))) ? before! : after;
      best = pick.i;
    }
    out[best]!.push(word);
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
      .map((w) => ({ word: w.word.trim(), start: round3(w.start), end: round3(w.end), ...(w.confidence === undefined ? {} : { confidence: w.confidence }) }))
      .filter((w) => w.word !== '');
    // A speaker recognised from the speaker library starts with the name it was recognised as (docs/speakers.md).
    if (source.speaker) speakers[source.speaker] = result?.speaker_names?.[source.speaker] ?? source.speaker;
    return {
      index,
      start: round3(source.start),
      end: round3(source.end),
      text,
      speaker: source.speaker,
      words: timed.length > 0 ? timed : spreadWords(tokensOf(text), source.start, source.end),
      ...(source.flags ? { flags: source.flags } : {}),
    };
  });
  return { speakers, segments };
}
