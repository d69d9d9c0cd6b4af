/**
 * Messages between the recognizer pool (parent, recognizer-pool.ts) and a recognizer child (recognizer-child.ts).
 * Streams are numbered by the parent, one per dictation session; everything crosses as a structured clone.
 */
import type { JobErrorCode } from '../../common/errors.js';
import type { LiveModelConfig, LiveUtterance } from './live-recognition-types.js';

export type RecognizerRequest =
  | { type: 'load'; model: LiveModelConfig }
  | {
      type: 'open';
      stream: number;
      /** The account the stream belongs to: the child takes turns between accounts (fair-queue.ts). */
      account: string;
      /** Hz of the PCM16 that will follow. */
      sampleRate: number;
      /** A language code for models that take one; null: the model's default (detection where it has it). */
      language: string | null;
      offsetSeconds: number;
      firstSegmentId: number;
    }
  | { type: 'audio'; stream: number; pcm: Uint8Array }
  /** The input ended: recognise what is left, then `ended`. */
  | { type: 'end'; stream: number }
  /** Drop the stream without recognising what is left. */
  | { type: 'close'; stream: number };

export type RecognizerReply =
  | { type: 'ready' }
  | { type: 'load-failed'; message: string }
  | { type: 'partial'; stream: number; segmentId: number; text: string }
  | { type: 'final'; stream: number; segmentId: number; utterance: LiveUtterance }
  /** One audio message was recognised (or dropped with an error): `bytes` of PCM no longer wait. */
  | { type: 'processed'; stream: number; bytes: number }
  | { type: 'ended'; stream: number }
  | { type: 'error'; stream: number; code: JobErrorCode; message: string }
  /** Something failed outside any stream: the child is of no more use. */
  | { type: 'fatal'; code: JobErrorCode; message: string };
