/**
 * The second decode of a doubtful utterance of a streaming (online) sherpa-onnx recognizer (issue 29.1,
 * flagged-redecode.ts): the recognizer finds its own utterance ends, so a flagged utterance is taken from the audio
 * just heard, split at its quietest moment, and each half recognised in a fresh stream of the same recognizer (the
 * job's stream carries on undisturbed). The halves' text is kept when it raises fewer flags. A fresh stream depends
 * on its samples only, so the same utterance gets the same choice in a resumed job.
 */
import { ASR_SAMPLE_RATE } from '../audio/decode.js';
import { retryFlagged, type Decoded } from './flagged-redecode.js';
import type { HeardAudio } from './heard-audio.js';
import type { GuardrailOptions } from './segment-guardrails.js';
import type { SherpaOnlineRecognizer } from './sherpa-native.js';
import { utterancesOf } from './streaming-recognition.js';
import { wordsFromTokens } from './token-words.js';
import type { Log } from '../../common/log.js';

/** Audio kept around an utterance when it is decoded again. */
const MARGIN_SECONDS = 0.25;

/** `samples` recognised in a fresh stream: the utterances' text and words, times counted from `start`. */
function decodeApart(recognizer: SherpaOnlineRecognizer, samples: Float32Array, start: number): Decoded {
  const utterances = utterancesOf(recognizer, samples);
  return {
    text: utterances.map((u) => u.text.trim()).filter(Boolean).join(' '),
    language: null,
    words: utterances.flatMap((u) => wordsFromTokens({ tokens: u.tokens, timestamps: u.timestamps, ...(u.logProbs ? { logProbs: u.logProbs } : {}) }, start + u.start, start + u.end)),
  };
}

/**
 * The utterance's text and words as the stream decoded them (`first`), or its halves' when it raises a flag and they
 * raise fewer. `start` and `end` are seconds from the stream's start (where `heard` counts from); the words' times
 * are moved by `offset` (the recording's time of the stream's start).
 */
export function redecodeStreamedIfFlagged(
  first: Decoded,
  start: number,
  end: number,
  offset: number,
  heard: HeardAudio,
  recognizer: SherpaOnlineRecognizer,
  guardrails: GuardrailOptions | undefined,
  log: Log,
): Decoded {
  const margin = Math.round(MARGIN_SECONDS * ASR_SAMPLE_RATE);
  const wanted = Math.round(start * ASR_SAMPLE_RATE) - margin;
  const { at, samples } = heard.slice(wanted, Math.round(end * ASR_SAMPLE_RATE) + margin);
  // An utterance longer than the audio kept cannot be decoded again whole: it stays as it is (and marked).
  if (at > Math.max(0, wanted)) return first;
  const from = offset + at / ASR_SAMPLE_RATE;
  return retryFlagged(first, (part, partStart) => decodeApart(recognizer, part, partStart), samples, from, from + samples.length / ASR_SAMPLE_RATE, guardrails, log);
}
