/**
 * Parses `pocketsphinx_continuous -time yes` output: per utterance a hypothesis line, then one line per word
 * `word start end confidence` (seconds from the start of the stream) between `<s>` and `</s>`.
 */
import type { TranscriptWord } from '../../common/api-types.js';
import type { RecognizedPiece } from './transcript.js';

/** An utterance, and where PocketSphinx closed it (`</s>`, after the silence that ended it): a resume point. */
export interface SphinxUtterance extends RecognizedPiece {
  until: number;
}

const WORD_LINE = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (-?\d+(?:\.\d+)?)$/;
/** Silence, noise and filler tokens of the CMU dictionary: timed, but not words. */
export const NON_WORD = /^(<s>|<\/s>|<sil>|\[.*\]|\+\+.*\+\+|\+.*\+)$/i;

/** The word of a dictionary entry: alternative pronunciations are numbered (`read(2)` → `read`). */
export function dictionaryWord(token: string): string {
  return token.replace(/\(\d+\)$/, '');
}

export class PocketsphinxOutputParser {
  private words: TranscriptWord[] = [];
  private start: number | null = null;
  private readonly pieces: SphinxUtterance[] = [];

  /** Feeds one output line; returns the utterance it completes, if any. */
  line(text: string): SphinxUtterance | null {
    const match = WORD_LINE.exec(text.trim());
    if (!match) return null;
    const [, token, from, to] = match as unknown as [string, string, string, string];
    const start = Number(from);
    const end = Number(to);
    if (token === '<s>') {
      this.words = [];
      this.start = start;
      return null;
    }
    if (token === '</s>') return this.close(end);
    this.start ??= start;
    if (!NON_WORD.test(token)) this.words.push({ word: dictionaryWord(token), start, end });
    return null;
  }

  /** Ends the output; an utterance without `</s>` (cut stream) is kept and returned last. */
  finish(): SphinxUtterance[] {
    if (this.start !== null && this.words.length > 0) this.close(this.words[this.words.length - 1]!.end);
    return this.pieces;
  }

  /** Seconds of input recognised so far. */
  get position(): number {
    return this.pieces.length ? this.pieces[this.pieces.length - 1]!.end : 0;
  }

  private close(end: number): SphinxUtterance | null {
    const start = this.start ?? end;
    this.start = null;
    const words = this.words;
    this.words = [];
    if (words.length === 0) return null;
    // The utterance spans its words; <s>/</s> include the silence around them.
    const piece = { start: words[0]?.start ?? start, end: words[words.length - 1]?.end ?? end, text: words.map((w) => w.word).join(' '), words, until: Math.max(end, words[words.length - 1]?.end ?? end) };
    this.pieces.push(piece);
    return piece;
  }
}
