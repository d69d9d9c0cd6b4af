/**
 * A second decode of a segment the guardrails doubt (issue 29.1): the segment is split at its quietest moment near
 * the middle and each half is recognised on its own — a fresh start for a recognizer that looped or ran on — and the
 * halves' text is kept when it raises fewer flags than the first decode's; otherwise the first stays (and its flags
 * mark it). One retry, so a segment costs at most about twice its decode. Used by every offline sherpa-onnx family
 * (engines/asr/sherpa-asr-engine.ts), and for the utterances PocketSphinx and the streaming recognizers close
 * themselves (retryFlagged: their first decode is the stream's; pocketsphinx-redecode.ts, streaming-redecode.ts);
 * what stays doubtful is still marked by transcript-assembly.ts.
 */
import type { TranscriptWord } from '../../common/api-types.js';
import { ASR_SAMPLE_RATE } from '../audio/decode.js';
import { segmentFlags, type GuardrailOptions } from './segment-guardrails.js';
import type { Log } from '../../common/log.js';

/** What a recognizer makes of some samples at a place in the recording. */
export interface Decoded {
  text: string;
  language: string | null;
  words: TranscriptWord[];
}

export type Recognize = (samples: Float32Array, start: number, end: number) => Decoded;

/** Halves shorter than this are not worth a decode of their own. */
export const MIN_HALF_SECONDS = 1;
/** The window whose energy finds the quietest moment. */
const WINDOW_SAMPLES = Math.round(0.05 * ASR_SAMPLE_RATE);

/** The sample to split at: the start of the quietest 50 ms window in the middle half of the segment. */
export function quietestSplit(samples: Float32Array): number {
  const from = Math.floor(samples.length / 4);
  const to = Math.floor((samples.length * 3) / 4) - WINDOW_SAMPLES;
  let best = Math.floor(samples.length / 2);
  let bestEnergy = Infinity;
  for (let at = from; at <= to; at += WINDOW_SAMPLES / 2) {
    let energy = 0;
    for (let i = at; i < at + WINDOW_SAMPLES; i++) energy += samples[i]! * samples[i]!;
    if (energy < bestEnergy) {
      bestEnergy = energy;
      best = at + WINDOW_SAMPLES / 2;
    }
  }
  return best;
}

/**
 * The first decode when it raises no flag (or the segment is too short to split); else the better of it and the two
 * halves decoded apart. `log` says what was done (the worker's log).
 */
export function decodeWithRetry(recognize: Recognize, samples: Float32Array, start: number, end: number, guardrails: GuardrailOptions | undefined, log: Log): Decoded {
  return retryFlagged(recognize(samples, start, end), recognize, samples, start, end, guardrails, log);
}

/**
 * `first` (a decode the recognizer already made of `samples`, e.g. PocketSphinx's or a streaming recognizer's
 * utterance) when it raises no flag or is too short to split; else the better of it and the two halves decoded
 * apart with `recognize`.
 */
export function retryFlagged(
  first: Decoded,
  recognize: Recognize,
  samples: Float32Array,
  start: number,
  end: number,
  guardrails: GuardrailOptions | undefined,
  log: Log,
): Decoded {
  const doubts = segmentFlags({ text: first.text, start, end }, guardrails);
  if (doubts.length === 0 || samples.length < 2 * MIN_HALF_SECONDS * ASR_SAMPLE_RATE) return first;
  const split = quietestSplit(samples);
  const middle = start + split / ASR_SAMPLE_RATE;
  const a = recognize(samples.subarray(0, split), start, middle);
  const b = recognize(samples.subarray(split), middle, end);
  const joined: Decoded = { text: [a.text.trim(), b.text.trim()].filter(Boolean).join(' '), language: a.language ?? b.language, words: [...a.words, ...b.words] };
  const again = segmentFlags({ text: joined.text, start, end }, guardrails);
  const better = again.length < doubts.length;
  log.info(`segment ${start.toFixed(2)}–${end.toFixed(2)} s flagged ${doubts.join(', ')}; decoded again in two halves: ${again.length ? again.join(', ') : 'no flag'}; kept the ${better ? 'second' : 'first'} decode`);
  return better ? joined : first;
}
