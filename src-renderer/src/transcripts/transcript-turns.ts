/**
 * A transcript revision laid out for reading: speaker turns (consecutive segments of one speaker), and its words
 * in time order with where each sits, so playback can find the word being spoken with one binary search.
 */
import type { RevisionSegment } from './transcript-api.js';

export interface Turn {
  speaker: string | null;
  start: number;
  segments: RevisionSegment[];
}

export interface TimedWord {
  start: number;
  end: number;
  word: string;
  /** The segment the word belongs to, and its place in that segment's words (-1: the segment has no word timings). */
  segment: number;
  position: number;
}

export function turnsOf(segments: readonly RevisionSegment[]): Turn[] {
  const turns: Turn[] = [];
  for (const s of segments) {
    const last = turns.at(-1);
    if (last && last.speaker === (s.speaker ?? null)) last.segments.push(s);
    else turns.push({ speaker: s.speaker ?? null, start: s.start, segments: [s] });
  }
  return turns;
}

/** Every word of the transcript in time order; a segment without word timings counts as one word. */
export function timedWords(segments: readonly RevisionSegment[]): TimedWord[] {
  const out: TimedWord[] = [];
  for (const s of segments) {
    if (s.words.length) s.words.forEach((w, position) => out.push({ start: w.start, end: w.end, word: w.word, segment: s.index, position }));
    else out.push({ start: s.start, end: s.end, word: s.text, segment: s.index, position: -1 });
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Index of the item (sorted by start, not overlapping) being spoken at `time`, or -1: one binary search. */
export function wordAt(words: readonly { start: number; end: number }[], time: number): number {
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

/** The word being spoken at `time`, or null between words. */
export function playingWord(words: readonly TimedWord[], time: number): TimedWord | null {
  if (time < 0) return null;
  return words[wordAt(words, time)] ?? null;
}

/** Segment indexes whose text holds every term of `q` (case-insensitive), for the in-transcript search. */
export function matchingSegments(segments: readonly RevisionSegment[], q: string): Set<number> {
  const terms = q.toLowerCase().split(/\s+/).filter(Boolean);
  const hits = new Set<number>();
  if (!terms.length) return hits;
  for (const s of segments) {
    const text = s.text.toLowerCase();
    if (terms.every((t) => text.includes(t))) hits.add(s.index);
  }
  return hits;
}
