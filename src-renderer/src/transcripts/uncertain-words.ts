/**
 * Words the recognizer was unsure of (issue 29.6): a word whose `confidence` (0..1, docs/transcripts.md
 * "Confidence") is below UNCERTAIN_BELOW is shaded in the workbench, and F9 / Shift+F9 go to the next / previous one,
 * so a person checks those first. A word without a confidence (an engine that scores none, a word an edit wrote) is
 * never shaded.
 */
import type { RevisionSegment } from './transcript-api.js';

/** Below this confidence a word is shaded as uncertain. */
export const UNCERTAIN_BELOW = 0.5;

export function isUncertain(word: { confidence?: number }): boolean {
  return word.confidence !== undefined && word.confidence < UNCERTAIN_BELOW;
}

/** A word of the transcript: its segment's place in the list (not its index) and the word's place in the segment. */
export interface WordPlace {
  order: number;
  word: number;
}

/** Every uncertain word, in reading order. */
export function uncertainPlaces(segments: readonly RevisionSegment[]): WordPlace[] {
  const out: WordPlace[] = [];
  segments.forEach((segment, order) => segment.words.forEach((word, i) => isUncertain(word) && out.push({ order, word: i })));
  return out;
}

/** The uncertain word after (or before) `here`, going round; null when there is none. `here` null: from the start (end). */
export function nextUncertain(places: readonly WordPlace[], here: WordPlace | null, backwards: boolean): WordPlace | null {
  if (places.length === 0) return null;
  const after = (a: WordPlace, b: WordPlace): boolean => a.order > b.order || (a.order === b.order && a.word > b.word);
  if (!here) return backwards ? places.at(-1)! : places[0]!;
  if (backwards) return [...places].reverse().find((p) => after(here, p)) ?? places.at(-1)!;
  return places.find((p) => after(p, here)) ?? places[0]!;
}
