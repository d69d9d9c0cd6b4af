/**
 * The second decode of a doubtful PocketSphinx utterance (issue 29.1, flagged-redecode.ts): PocketSphinx finds its
 * own utterance ends as the recording streams through it, so a flagged utterance is taken from the audio just heard,
 * split at its quietest moment, and each half recognised apart by a second decoder started afresh for it (the
 * stream's decoder carries on undisturbed). The halves' text is kept when it raises fewer flags. A decode depends on
 * the samples only (the retry decoder's detector and normalisation are put back before each half), so a resumed job
 * makes the same choice for the same utterance. The retry decoder is loaded on the first doubtful utterance only.
 */
import { ASR_SAMPLE_RATE } from '../audio/decode.js';
import type { HeardAudio } from './heard-audio.js';
import { retryFlagged, type Decoded } from './flagged-redecode.js';
import type { SphinxUtterance } from './pocketsphinx-output.js';
import type { PocketsphinxStreamDecoder } from './pocketsphinx-stream-decoder.js';
import type { GuardrailOptions } from './segment-guardrails.js';
import { floatToInt16 } from '../audio/pcm.js';

/** Audio kept around an utterance's words when it is decoded again (PocketSphinx needs a little silence to start). */
const MARGIN_SECONDS = 0.25;
/** Recognises samples on their own with a decoder started afresh: its utterances' text and words (times from `start`). */
function decodeApart(decoder: PocketsphinxStreamDecoder, samples: Float32Array, start: number): Decoded {
  decoder.begin();
  const utterances = decoder.feed(floatToInt16(samples));
  const last = decoder.finish();
  if (last) utterances.push(last);
  return {
    text: utterances.map((u) => u.text).join(' '),
    language: null,
    words: utterances.flatMap((u) => (u.words ?? []).map((w) => ({ ...w, start: w.start + start, end: w.end + start }))),
  };
}

/**
 * The utterance as the stream decoded it, or — when it raises a flag and its halves decoded apart raise fewer — with
 * their text and words (its times and resume point stay). `heard` holds the audio around it; times are seconds
 * from the stream decoder's begin().
 */
export function redecodeIfFlagged(
  utterance: SphinxUtterance,
  heard: HeardAudio,
  retryDecoder: () => PocketsphinxStreamDecoder,
  guardrails: GuardrailOptions | undefined,
  log: (line: string) => void,
): SphinxUtterance {
  const first: Decoded = { text: utterance.text, language: null, words: utterance.words ?? [] };
  const margin = Math.round(MARGIN_SECONDS * ASR_SAMPLE_RATE);
  const wanted = Math.round(utterance.start * ASR_SAMPLE_RATE) - margin;
  const { at, samples } = heard.slice(wanted, Math.round(utterance.end * ASR_SAMPLE_RATE) + margin);
  // An utterance longer than the audio kept cannot be decoded again whole: it stays as it is (and marked).
  if (at > Math.max(0, wanted)) return utterance;
  const offset = at / ASR_SAMPLE_RATE;
  const kept = retryFlagged(first, (part, start) => decodeApart(retryDecoder(), part, start), samples, offset, offset + samples.length / ASR_SAMPLE_RATE, guardrails, log);
  return kept === first ? utterance : { ...utterance, text: kept.text, words: kept.words };
}
