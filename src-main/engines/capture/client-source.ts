/**
 * A side whose frames a client sends over the capture socket (docs/capture.md): the desktop app on Windows and macOS
 * records the microphone with getUserMedia and the system's output with Electron's loopback audio capture, and sends
 * both as 16 kHz PCM16. The capture treats it like any source; a client that goes away ends it.
 */
import type { CaptureChannel, PcmSource } from './capture-types.js';

export class ClientSource implements PcmSource {
  private onFrame: ((pcm: Buffer) => void) | null = null;
  private ended: ((reason: string | null) => void) | null = null;

  constructor(readonly channel: CaptureChannel) {}

  start(onFrame: (pcm: Buffer) => void, ended: (reason: string | null) => void): void {
    this.onFrame = onFrame;
    this.ended = ended;
  }

  /** A frame from the client (whole samples, checked by the socket). */
  push(pcm: Buffer): void {
    this.onFrame?.(pcm);
  }

  /** The client stopped sending this side (its socket closed, or the track ended). */
  end(reason: string): void {
    const ended = this.ended;
    this.ended = null;
    this.onFrame = null;
    ended?.(reason);
  }

  stop(): void {
    this.onFrame = null;
    this.ended = null;
  }
}
