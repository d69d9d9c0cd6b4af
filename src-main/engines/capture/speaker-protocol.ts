/**
 * Messages between a meeting capture (service/capture/, through speaker-process.ts) and its speaker child
 * (speaker-child.ts), which tells the other side's voices apart off the service's thread. Requests are numbered by the
 * parent; everything crosses as a structured clone.
 */
import type { RecordingVoice } from '../../common/speaker-matching.js';
import type { DiarizationModels, SpeakerTurn } from '../asr/diarization.js';

export type SpeakerRequest =
  | { type: 'load'; models: DiarizationModels }
  /** One finished utterance of the other side: PCM16 mono at 16 kHz. */
  | { type: 'embed'; id: number; pcm: Uint8Array }
  /** The other side of a finished recording: channel `channel` of the 16 kHz PCM16 WAV at `path`. */
  | { type: 'diarize'; id: number; path: string; channel: number };

export type SpeakerReply =
  | { type: 'embedded'; id: number; embedding: number[] | null }
  | { type: 'diarized'; id: number; turns: SpeakerTurn[]; voices: RecordingVoice[] }
  | { type: 'failed'; id: number; message: string };
