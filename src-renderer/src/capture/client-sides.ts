/**
 * A meeting capture's two sides recorded by this window and sent over the capture's socket (docs/capture.md: binary
 * frames, one side byte then PCM16 mono 16 kHz; `source.end` when a side stops): where the service cannot record the
 * machine's devices — the desktop app on Windows and macOS, or a page whose service runs elsewhere. The microphone
 * comes from getUserMedia and the computer's sound from a screen share (system-audio.ts); both are asked for before
 * the capture starts, so a refusal says why before anything records.
 */
import { CAPTURE_FRAME_SIDE, CAPTURE_MAX_FRAME_BYTES, type CaptureSide } from '$common/capture-protocol.js';
import type { DesktopBridge } from '$common/desktop-bridge.js';
import { MicCapture, microphoneStream } from '../live/dictation/mic-capture.js';
import { systemAudioStream } from './system-audio.js';

/** Where the frames go: the capture's socket once it is open. */
export interface SideSink {
  sendFrame(frame: Uint8Array): void;
  sendMessage(message: { type: 'source.end'; side: CaptureSide }): void;
}

/** One side's frame: its side byte, then the PCM (split where it is longer than a frame may be). */
export function sideFrames(side: CaptureSide, pcm: ArrayBuffer): Uint8Array[] {
  const bytes = new Uint8Array(pcm);
  const frames: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += CAPTURE_MAX_FRAME_BYTES) {
    const part = bytes.subarray(at, Math.min(bytes.length, at + CAPTURE_MAX_FRAME_BYTES));
    const frame = new Uint8Array(part.length + 1);
    frame[0] = CAPTURE_FRAME_SIDE[side];
    frame.set(part, 1);
    frames.push(frame);
  }
  return frames;
}

export class ClientSides {
  #streams: Partial<Record<CaptureSide, MediaStream>> = {};
  #captures: MicCapture[] = [];

  /** Asks for the microphone and the computer's sound; rejects with a PageError (nothing is kept) when one is refused. */
  async acquire(bridge: Pick<DesktopBridge, 'armSystemAudio'> | null, microphoneId: string | null = null): Promise<void> {
    const microphone = await microphoneStream(microphoneId);
    try {
      this.#streams = { microphone, system: await systemAudioStream(bridge) };
    } catch (error) {
      for (const track of microphone.getTracks()) track.stop();
      throw error;
    }
  }

  /** Starts sending both sides to `sink` (the capture's socket is open); a side whose track ends says so. */
  async start(sink: SideSink): Promise<void> {
    for (const side of ['microphone', 'system'] as const) {
      const stream = this.#streams[side];
      if (!stream) continue;
      const capture = new MicCapture({
        onPcm: (pcm) => {
          for (const frame of sideFrames(side, pcm)) sink.sendFrame(frame);
        },
        onLevel: () => undefined, // the service reports both sides' levels (capture.levels)
      });
      for (const track of stream.getAudioTracks()) track.addEventListener('ended', () => sink.sendMessage({ type: 'source.end', side }), { once: true });
      this.#captures.push(capture);
      await capture.attach(stream);
    }
  }

  /** Stops both sides and lets go of the devices. */
  async stop(): Promise<void> {
    const captures = this.#captures;
    this.#captures = [];
    await Promise.all(captures.map((capture) => capture.stop()));
    for (const stream of Object.values(this.#streams)) for (const track of stream.getTracks()) track.stop();
    this.#streams = {};
  }
}
