/**
 * The live speech-to-text (dictation) WebSocket, `/v1/speech-to-text/realtime?model=ID`: the messages both sides
 * send, shared by the service and the renderer (docs/engines-and-models.md, "Live speech to text", documents every
 * field). The counterpart of the live text-to-speech socket: the client streams PCM16 microphone audio, the service
 * answers with partial and final transcripts, and the session becomes a speech-to-text job when it ends.
 */
import type { TranscriptWord } from './api-types.js';

export const DICTATION_PATH = '/v1/speech-to-text/realtime';

/** Sample rate of the audio a client sends when it does not say (session.update `sample_rate`). */
export const DICTATION_DEFAULT_SAMPLE_RATE = 16_000;
export const DICTATION_MIN_SAMPLE_RATE = 8_000;
export const DICTATION_MAX_SAMPLE_RATE = 48_000;
/** Largest binary frame accepted (bytes); a larger one is refused with `frame_too_large`. 64 KiB = 2 s at 16 kHz. */
export const DICTATION_MAX_FRAME_BYTES = 64 * 1024;

/** What session.created and session.updated describe. */
export interface DictationSessionInfo {
  id: string;
  model: string;
  /** Hz of the PCM16 mono little-endian audio the client sends. */
  sample_rate: number;
  /** Null until set: the model's own default (detection where it has it). */
  language: string | null;
  /**
   * `streaming`: the model recognises as audio arrives (partials every chunk); `vad`: utterances cut by Silero VAD.
   * A session on a hosted model shows the hosted service's own session (its mode, its id).
   */
  mode: 'streaming' | 'vad';
}

export interface DictationFinal {
  type: 'transcript.final';
  /** Counts from 0 within the session; the partials of an utterance carry the id of its final. */
  segment_id: number;
  text: string;
  /** Seconds from the first sample of the session (the job's recording). */
  start: number;
  end: number;
  /** Present when the engine gives word timings. */
  words?: TranscriptWord[];
}

export type DictationServerMessage =
  | { type: 'session.created'; session: DictationSessionInfo }
  | { type: 'session.updated'; session: DictationSessionInfo }
  | { type: 'transcript.partial'; segment_id: number; text: string }
  | DictationFinal
  | {
      type: 'session.done';
      /** The speech-to-text job that records the session; null when no audio was received. */
      job_id: string | null;
      /** Seconds of audio received (the job's duration_seconds, the billing basis). */
      duration_seconds: number;
    }
  | { type: 'error'; error: { code: string; message: string } };

export type DictationClientMessage =
  | { type: 'session.update'; session: { sample_rate?: number; language?: string } }
  | { type: 'input_audio.end' };
