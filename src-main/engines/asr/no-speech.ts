/**
 * Text over silence (issue 29.1, the `no_speech` flag): a recognizer handed a window with nobody speaking in it —
 * Whisper above all — can write a sentence anyway ("Thank you for watching."). When a recording is cut into fixed
 * windows (vad_filter false), each recognised window with text is checked with the Silero voice-activity detector:
 * if it finds no speech in the window's samples, the segment is flagged `no_speech` (kept, never dropped). With
 * vad_filter true the segments are the detector's own speech and need no check.
 *
 * Whisper's `no_speech_threshold` (default 0.6) is honoured as the detector's side of the same question: a 32 ms
 * window counts as speech when Silero's speech probability is above 1 − no_speech_threshold (0.4 by default), and a
 * segment without 0.25 s of such speech is taken as silence — as Whisper takes a window whose no-speech probability
 * is above the threshold. docs/transcripts.md lists it with the other checks.
 */
import { createVad } from '../audio/vad.js';
import { ASR_SAMPLE_RATE } from '../audio/decode.js';

/** Whisper's default no-speech threshold (openai/whisper transcribe.py). */
export const NO_SPEECH_THRESHOLD = 0.6;
/** Less speech than this in a segment is none (the detector's own shortest speech). */
export const MIN_SPEECH_SECONDS = 0.25;
const FEED = 512 * 16;

/** Seconds of speech the detector finds in `samples` with its speech threshold at 1 − noSpeechThreshold. */
export function speechSeconds(vadModel: string, samples: Float32Array, noSpeechThreshold = NO_SPEECH_THRESHOLD): number {
  const vad = createVad({ model: vadModel, threshold: Math.min(0.99, Math.max(0.01, 1 - noSpeechThreshold)), minSpeechSeconds: MIN_SPEECH_SECONDS, minSilenceSeconds: 0.1, maxSpeechSeconds: 30 });
  let speech = 0;
  const drain = (): void => {
    while (!vad.isEmpty()) {
      speech += vad.front(false).samples.length;
      vad.pop();
    }
  };
  for (let at = 0; at < samples.length; at += FEED) {
    vad.acceptWaveform(samples.subarray(at, Math.min(samples.length, at + FEED)));
    drain();
  }
  vad.flush();
  drain();
  return speech / ASR_SAMPLE_RATE;
}

/** Whether text recognised over `samples` is over silence: the detector finds less than MIN_SPEECH_SECONDS of speech. */
export function isOverSilence(vadModel: string, samples: Float32Array, noSpeechThreshold = NO_SPEECH_THRESHOLD): boolean {
  return speechSeconds(vadModel, samples, noSpeechThreshold) < MIN_SPEECH_SECONDS;
}
