/**
 * Word timings from sherpa-onnx token timestamps (CTC and transducer families). SentencePiece marks a word's first
 * token with "▁"; some token sets use a leading space instead. A word ends where its last token's duration ends
 * (TDT models give durations) or where the next token starts, at most TOKEN_SPAN_SECONDS after its last token. A token
 * in a script written without spaces (Chinese, Japanese: SenseVoice's) is a word of its own.
 */
import type { TranscriptWord } from '../../common/api-types.js';

/** Han and kana: scripts written without spaces between words (Korean has spaces). */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** Assumed length of a token without a duration (a little more than 2 encoder frames of 40 ms). */
export const TOKEN_SPAN_SECONDS = 0.1;

export interface TokenTimes {
  tokens: string[];
  /** Seconds from the start of the segment. */
  timestamps: number[];
  durations?: number[];
  /**
   * Each token's log probability where the recognizer gives it (transducers: ys_log_probs offline, ys_probs
   * streaming): a word's `confidence` is the geometric mean of its tokens' probabilities, exp(mean log prob).
   */
  logProbs?: number[];
}

/** Words with absolute times (`offset` is the segment's start); [] when the result has no token times. */
export function wordsFromTokens(result: TokenTimes, offset: number, segmentEnd: number): TranscriptWord[] {
  const { tokens, timestamps, durations } = result;
  if (tokens.length === 0 || timestamps.length !== tokens.length) return [];
  const logProbs = result.logProbs?.length === tokens.length && result.logProbs.every(Number.isFinite) ? result.logProbs : null;
  const words: TranscriptWord[] = [];
  let current: { text: string; start: number; firstIndex: number; lastIndex: number } | null = null;
  const close = (): void => {
    if (!current || current.text === '') return;
    const i = current.lastIndex;
    const tokenEnd = durations && durations[i]! > 0 ? timestamps[i]! + durations[i]! : timestamps[i]! + TOKEN_SPAN_SECONDS;
    const next = timestamps[i + 1];
    const end = Math.min(next ?? Infinity, tokenEnd, segmentEnd - offset);
    const confidence = logProbs ? wordConfidence(logProbs.slice(current.firstIndex, i + 1)) : undefined;
    words.push({ word: current.text, start: offset + current.start, end: offset + Math.max(end, current.start), ...(confidence === undefined ? {} : { confidence }) });
  };
  tokens.forEach((token, index) => {
    // Chinese and Japanese are written without spaces: each such token is a word of its own.
    const cjk = CJK.test(token) || (current !== null && CJK.test((current as { text: string }).text));
    const startsWord = token.startsWith('▁') || token.startsWith(' ') || cjk;
    const piece = token.replace(/^[▁ ]+/, '').replace(/▁/g, ' ');
    if (startsWord || !current) {
      close();
      current = { text: piece.trim(), start: timestamps[index]!, firstIndex: index, lastIndex: index };
    } else {
      current.text += piece;
      current.lastIndex = index;
    }
  });
  close();
  return words;
}

/** A word's confidence from its tokens' log probabilities: their geometric mean probability, 0..1 (3 decimals). */
export function wordConfidence(logProbs: readonly number[]): number | undefined {
  if (logProbs.length === 0) return undefined;
  const mean = logProbs.reduce((a, b) => a + b, 0) / logProbs.length;
  return Math.round(Math.min(1, Math.exp(Math.min(0, mean))) * 1000) / 1000;
}
