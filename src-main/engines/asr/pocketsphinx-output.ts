/**
 * Turns what PocketSphinx reports for one utterance (its segments: words, silences and fillers with their frames,
 * between `<s>` and `</s>`) into a transcript piece with word times, exactly as the command-line program's
 * `-time yes` output read before: fillers and silences dropped, alternative pronunciations folded into their word.
 */
import type { TranscriptWord } from '../../common/api-types.js';
import type { RecognizedPiece } from './transcript.js';

/** An utterance, and where PocketSphinx closed it (`</s>`, after the silence that ended it): a resume point. */
export interface SphinxUtterance extends RecognizedPiece {
  until: number;
}

/** One segment of an utterance, times in seconds from the start of the stream. */
export interface SphinxSegment {
  token: string;
  start: number;
  end: number;
  /** Its posterior probability, 0..1 (pocketsphinx-library.ts), when the decoder gave one. */
  posterior?: number;
}

/** Silence, noise and filler tokens of the CMU dictionary: timed, but not words. */
export const NON_WORD = /^(<s>|<\/s>|<sil>|\[.*\]|\+\+.*\+\+|\+.*\+)$/i;

/** A word's `confidence` from a posterior (rounded to 3 decimals), or nothing when there is none. */
export function confidenceOf(posterior: number | undefined): { confidence?: number } {
  return posterior === undefined || !Number.isFinite(posterior) ? {} : { confidence: Math.round(Math.min(1, Math.max(0, posterior)) * 1000) / 1000 };
}

/** The word of a dictionary entry: alternative pronunciations are numbered (`read(2)` → `read`). */
export function dictionaryWord(token: string): string {
  return token.replace(/\(\d+\)$/, '');
}

/**
 * The piece an utterance's segments make, or null when it holds no word (only silence or noise). It spans its words;
 * `until` is where `</s>` ended (past the silence that closed the utterance), or its last word's end when the
 * stream ended in the middle of it.
 */
export function utteranceFromSegments(segments: readonly SphinxSegment[]): SphinxUtterance | null {
  const words: TranscriptWord[] = segments.filter((s) => !NON_WORD.test(s.token)).map((s) => ({ word: dictionaryWord(s.token), start: s.start, end: s.end, ...confidenceOf(s.posterior) }));
  if (words.length === 0) return null;
  const last = words[words.length - 1]!;
  const closed = segments.findLast((s) => s.token === '</s>');
  return { start: words[0]!.start, end: last.end, text: words.map((w) => w.word).join(' '), words, until: Math.max(closed?.end ?? last.end, last.end) };
}
