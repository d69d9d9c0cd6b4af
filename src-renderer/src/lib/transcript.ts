/** Transcript views: paragraphs by speaker and segment, word lookup by time, and search. */
import type { JobResult, TranscriptWord } from '$common/api-types.js';

export interface TranscriptWordView extends TranscriptWord {
  index: number;
}

export interface Paragraph {
  speaker: string | null;
  start: number;
  end: number;
  /** Words with timings when the model gave them; otherwise one pseudo-word per segment text. */
  words: TranscriptWordView[];
  text: string;
}

/** Group the result into paragraphs: a new one at each speaker change or each segment when there are no words. */
export function paragraphs(result: JobResult | null | undefined): Paragraph[] {
  if (!result) return [];
  const words = result.words ?? [];
  const out: Paragraph[] = [];
  if (words.length) {
    const segments = result.segments ?? [];
    let segIndex = 0;
    let current: Paragraph | null = null;
    words.forEach((w, index) => {
      while (segIndex < segments.length - 1 && w.start >= segments[segIndex]!.end) segIndex++;
      const speaker = w.speaker ?? segments[segIndex]?.speaker ?? null;
      const newSegment = segments.length > 0 && current !== null && w.start >= (segments[segIndex]?.start ?? 0) &&
        current.end <= (segments[segIndex]?.start ?? 0);
      if (!current || current.speaker !== speaker || newSegment) {
        current = { speaker, start: w.start, end: w.end, words: [], text: '' };
        out.push(current);
      }
      current.words.push({ ...w, index });
      current.end = w.end;
    });
    for (const p of out) p.text = p.words.map((w) => w.word.trim()).join(' ');
    return out;
  }
  for (const s of result.segments ?? []) {
    out.push({
      speaker: s.speaker ?? null,
      start: s.start,
      end: s.end,
      words: [{ word: s.text.trim(), start: s.start, end: s.end, index: s.id }],
      text: s.text.trim(),
    });
  }
  if (!out.length && result.text) {
    out.push({ speaker: null, start: 0, end: result.duration ?? 0, words: [], text: result.text.trim() });
  }
  return out;
}

/** Index of the word being spoken at `time` (for highlighting during playback), or -1. */
export function wordAt(words: readonly TranscriptWord[], time: number): number {
  let lo = 0;
  let hi = words.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const w = words[mid]!;
    if (time < w.start) hi = mid - 1;
    else if (time >= w.end) lo = mid + 1;
    else return mid;
  }
  return -1;
}

/** Case-insensitive search; returns the paragraph indexes that match every term of the query. */
export function searchParagraphs(list: readonly Paragraph[], q: string): number[] {
  const terms = q.toLowerCase().split(/\s+/).filter(Boolean);
  if (!terms.length) return [];
  const hits: number[] = [];
  list.forEach((p, i) => {
    const text = p.text.toLowerCase();
    if (terms.every((t) => text.includes(t))) hits.push(i);
  });
  return hits;
}

export function matchesQuery(word: string, q: string): boolean {
  const terms = q.toLowerCase().split(/\s+/).filter(Boolean);
  const w = word.toLowerCase();
  return terms.some((t) => w.includes(t));
}
