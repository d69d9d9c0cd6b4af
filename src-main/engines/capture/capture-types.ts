/**
 * What a meeting capture records (docs/capture.md): two sides of a conversation, each a mono source of PCM16 at the
 * capture rate — the person's microphone ("You") and the system's output (the other people). Shared by the sources
 * (PulseAudio/PipeWire here, frames sent by a client elsewhere), the two-channel recording and the service.
 */

/** The capture rate: what the recognizers take (16 kHz mono PCM16 per side). */
export const CAPTURE_SAMPLE_RATE = 16_000;

/** The two sides, in the order of the recording's channels (0 = left = microphone, 1 = right = system output). */
export const CAPTURE_CHANNELS = ['microphone', 'system'] as const;
export type CaptureChannel = (typeof CAPTURE_CHANNELS)[number];

/** A device a side can be recorded from. */
export interface CaptureDevice {
  /** The audio server's name for it (`alsa_input.pci-…`, `alsa_output.pci-….monitor`). */
  id: string;
  /** What people call it ("Built-in Audio Analog Stereo", "Monitor of …"). */
  name: string;
  /** microphone: an input; system: what a sink plays (its monitor). */
  kind: CaptureChannel;
  /** The default input, or the monitor of the default output. */
  default: boolean;
}

/** Where the sides come from on this machine, and why nothing can be recorded when that is so. */
export interface CaptureSourceList {
  /**
   * `pulse`: the service records the devices itself through the PulseAudio or PipeWire sound server (Linux);
   * `client`: the client sends each side's frames over the capture socket (Windows and macOS: the desktop app records
   * the microphone and Electron's loopback audio); null: neither can work here (`reason` says why).
   */
  backend: 'pulse' | 'client' | null;
  devices: CaptureDevice[];
  reason: string | null;
}

/** A running source of one side: frames of PCM16 mono at CAPTURE_SAMPLE_RATE. */
export interface PcmSource {
  readonly channel: CaptureChannel;
  /** Starts delivering; `ended` comes once, with the reason when the source failed or vanished (a device unplugged). */
  start(onFrame: (pcm: Buffer) => void, ended: (reason: string | null) => void): void;
  stop(): void;
}
