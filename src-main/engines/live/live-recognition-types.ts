/**
 * What live recognition is made of, inside the recognizer child process (recognizer-child.ts): a model config the
 * parent sends once, utterance decoders (offline models, one call per utterance) and live streams (one per
 * dictation session) that turn 16 kHz samples into partial and final transcripts.
 */
import type { TranscriptWord } from '../../common/api-types.js';
import type { SherpaAsrEngineConfig } from '../asr/asr-families.js';
import type { PocketsphinxInstall } from '../asr/pocketsphinx-install.js';

/** The sample rate every live recognizer works at; the child resamples the client's audio to it. */
export const LIVE_SAMPLE_RATE = 16_000;

/** How a model is run live: streaming models decode as audio arrives; offline models decode VAD-cut utterances. */
export type LiveModelConfig =
  | { kind: 'sherpa-online'; config: SherpaAsrEngineConfig }
  | { kind: 'sherpa-offline'; config: SherpaAsrEngineConfig; vadModel: string }
  | { kind: 'pocketsphinx'; install: PocketsphinxInstall; vadModel: string };

/** One recognised utterance; times in seconds from the start of the session's audio. */
export interface LiveUtterance {
  start: number;
  end: number;
  text: string;
  /** Present when the engine gives word timings. */
  words?: TranscriptWord[];
  /** How long the engine took for this utterance's final decode (ms): the benchmark's baseline. */
  decodeMs: number;
}

export interface LiveStreamEvents {
  partial(segmentId: number, text: string): void;
  final(segmentId: number, utterance: LiveUtterance): void;
}

export interface LiveStreamOptions {
  /** Seconds of session audio before this stream's first sample (a stream reopened after a crash). Default 0. */
  offsetSeconds: number;
  /** The segment id of this stream's first utterance. Default 0. */
  firstSegmentId: number;
}

/** One session's recognition: push 16 kHz audio, finish at the end of input. Calls are synchronous. */
export interface LiveStream {
  accept(samples: Float32Array): void;
  /** The input ended: recognise what is left (finals for every open utterance). */
  finish(): void;
  /** Frees native state. */
  dispose(): void;
}

/** An offline recognizer for one utterance at a time; word times relative to the utterance's first sample. */
export interface UtteranceDecoder {
  decode(samples: Float32Array): { text: string; words?: TranscriptWord[] };
}
