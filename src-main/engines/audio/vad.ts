/**
 * Silero voice activity detection through sherpa-onnx's `Vad` (docs/design.md §7). Speech longer than
 * `maxSpeechSeconds` is split by the detector itself, so every segment fits a recognizer's window.
 */
import { loadSherpa, type SherpaVad } from '../asr/sherpa-native.js';
import { ASR_SAMPLE_RATE } from './decode.js';

export interface VadOptions {
  /** Absolute path of silero_vad (v4 or v5) .onnx. */
  model: string;
  /** Speech probability above which a frame is speech. Default 0.5. */
  threshold?: number;
  /** Shorter speech is ignored. Default 0.25 s. */
  minSpeechSeconds?: number;
  /** Silence needed to end a segment. Default 0.5 s. */
  minSilenceSeconds?: number;
  /** Longer speech is cut here (Whisper reads 30 s at most). Default 25 s. */
  maxSpeechSeconds?: number;
}

export const VAD_DEFAULTS = { threshold: 0.5, minSpeechSeconds: 0.25, minSilenceSeconds: 0.5, maxSpeechSeconds: 25 } as const;

/** Creates a detector; its internal buffer holds a little more than one maximal segment. */
export function createVad(options: VadOptions): SherpaVad {
  const { Vad } = loadSherpa();
  const maxSpeech = options.maxSpeechSeconds ?? VAD_DEFAULTS.maxSpeechSeconds;
  return new Vad(
    {
      sileroVad: {
        model: options.model,
        threshold: options.threshold ?? VAD_DEFAULTS.threshold,
        minSpeechDuration: options.minSpeechSeconds ?? VAD_DEFAULTS.minSpeechSeconds,
        minSilenceDuration: options.minSilenceSeconds ?? VAD_DEFAULTS.minSilenceSeconds,
        maxSpeechDuration: maxSpeech,
        windowSize: 512,
      },
      sampleRate: ASR_SAMPLE_RATE,
      numThreads: 1,
      debug: 0,
    },
    // Room for the longest segment plus look-back; sherpa-onnx grows the buffer (and logs) when it is short.
    Math.max(120, maxSpeech * 4),
  );
}
