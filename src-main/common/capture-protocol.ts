/**
 * Wire types of meeting capture (docs/capture.md): `POST /v1/captures`, `GET /v1/captures[/{id}]`,
 * `POST /v1/captures/{id}/stop`, `GET /v1/captures/sources` and the realtime socket
 * `ws://HOST/v1/captures/{id}/realtime`. Shared by the service, the command line and the renderer.
 */

export type CaptureSide = 'microphone' | 'system';

/** The names the transcript gives the two sides (speaker keys of the job's revision 0; renameable like any speaker). */
export const CAPTURE_SPEAKERS: Record<CaptureSide, string> = { microphone: 'You', system: 'Other side' };

/** The first byte of a binary frame a client sends for a side it records itself: 0 microphone, 1 system. */
export const CAPTURE_FRAME_SIDE: Record<CaptureSide, number> = { microphone: 0, system: 1 };

/** A client side's audio: PCM16 mono little-endian at this rate, at most CAPTURE_MAX_FRAME_BYTES after the side byte. */
export const CAPTURE_CLIENT_SAMPLE_RATE = 16_000;
export const CAPTURE_MAX_FRAME_BYTES = 65_536;

export interface CaptureDeviceInfo {
  id: string;
  name: string;
  kind: CaptureSide;
  default: boolean;
}

/** GET /v1/captures/sources */
export interface CaptureSources {
  object: 'capture.sources';
  /** pulse: the service records this machine's devices (Linux: PulseAudio or PipeWire); client: the client sends both sides; null: neither (see reason). */
  backend: 'pulse' | 'client' | null;
  devices: CaptureDeviceInfo[];
  reason: string | null;
}

/** POST /v1/captures */
export interface CaptureRequest {
  /** A live speech-to-text model on this device (GET /v1/models: capability speech-to-text, live true). */
  model: string;
  /** One of the model's languages, or auto (the default). */
  language?: string;
  /** A device id of GET /v1/captures/sources, `default`, or `client` (the client sends this side's frames). */
  microphone?: string;
  system?: string;
}

export interface CaptureSourceState {
  /** The device recorded, or `client`. */
  device: string;
  /** recording; ended (the device stopped: the side is silence from then on, `error` says why). */
  state: 'recording' | 'ended';
  error: string | null;
}

export interface CaptureWarning {
  code: 'silent_side';
  side: CaptureSide;
  message: string;
}

export interface Capture {
  id: string;
  object: 'capture';
  /** recording → stopping → done (a job holds it) | failed (nothing could be kept; `error` says why). */
  status: 'recording' | 'stopping' | 'done' | 'failed';
  /** True while, after the stop (status stopping), the other side's speakers are told apart for the job. */
  diarizing: boolean;
  model: string;
  language: string | null;
  created_at: string;
  ended_at: string | null;
  /** Seconds of both sides received. */
  duration_seconds: number;
  /** Seconds of them on disk (committed every chunk: a crash loses at most the rest). */
  committed_seconds: number;
  sources: Record<CaptureSide, CaptureSourceState>;
  /** What is wrong now (a side silent for a minute while the other talks). */
  warnings: CaptureWarning[];
  /** The speech-to-text job holding the recording and transcript, once done. */
  job_id: string | null;
  error: { code: string; message: string } | null;
  /** Path of the realtime socket (relative to the service). */
  realtime_path: string;
}

export interface CaptureList {
  object: 'list';
  data: Capture[];
}

export type CaptureServerMessage =
  | { type: 'capture.state'; capture: Capture }
  | { type: 'transcript.partial'; side: CaptureSide; speaker: string; segment_id: number; text: string }
  | { type: 'transcript.final'; side: CaptureSide; speaker: string; segment_id: number; text: string; start: number; end: number }
  | { type: 'capture.levels'; microphone: number; system: number }
  | { type: 'capture.warning'; warning: CaptureWarning }
  | { type: 'capture.warning_cleared'; side: CaptureSide }
  | { type: 'capture.done'; job_id: string | null; duration_seconds: number }
  | { type: 'error'; error: { code: string; message: string } };

export type CaptureClientMessage = { type: 'source.end'; side: CaptureSide; reason?: string } | { type: 'capture.stop' };
