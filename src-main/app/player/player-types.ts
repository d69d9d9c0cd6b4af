/** Types of the native audio player (the Electron preload bridge and the live playback use them). */
import type { AdaptiveJitter } from './adaptive-jitter.js';

export interface PlayerOptions {
  /** Rate of the PCM written (Hz). Required. */
  sampleRate: number;
  /** PortAudio device id; -1 is the system default. Default -1. */
  deviceId?: number;
  /**
   * Frames per device buffer: 512–1024 play cleanly, 256 underflows on a busy 2-core machine; the first sound comes
   * no sooner with fewer (docs/benchmarks.md, goal 3). Also the unit in which audio is handed to the device. Default 1024.
   */
  framesPerBuffer?: number;
  /**
   * Audio held before the device starts, and before it resumes after an underrun, when no shared `jitter` policy is
   * given: the start value of the player's own adaptive jitter buffer (ms). Default 20.
   */
  jitterMs?: number;
  /**
   * The adaptive jitter buffer's policy, shared by the players of one live session so an underrun on one utterance
   * makes the next hold more. Default: a policy of the player's own starting at `jitterMs`.
   */
  jitter?: AdaptiveJitter;
  /** Silence added by end() so the device plays the last real samples out (buffers). Default 4. */
  padBuffers?: number;
  /**
   * How far ahead of the playback position audio is handed to the device (ms). The sound server keeps whatever it
   * was given even after an abort, so this bounds how long stop() can take to be heard. Default 200.
   */
  maxAheadMs?: number;
  /** Audio queued in the player beyond which write() returns false until 'drain' (ms). Default 1000. */
  queueHighMs?: number;
}

export const DEFAULT_PLAYER_OPTIONS: Required<Omit<PlayerOptions, 'sampleRate' | 'jitter'>> = {
  deviceId: -1,
  framesPerBuffer: 1024,
  jitterMs: 20,
  padBuffers: 4,
  maxAheadMs: 200,
  queueHighMs: 1000,
};

/** How often the player tops the device up (ms). */
export const PLAYER_FEED_INTERVAL_MS = 10;

export type PlayerErrorCode =
  /** naudiodon (or PortAudio) could not be loaded. */
  | 'audio_unavailable'
  /** No output device, or the chosen device id does not exist or cannot be opened. */
  | 'device_unavailable'
  /** The device failed while playing (unplugged, changed, server gone). */
  | 'device_error'
  /** Bad PCM or options from the caller. */
  | 'invalid_audio';

export class PlayerError extends Error {
  constructor(
    readonly code: PlayerErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'PlayerError';
  }
}

export interface PlayerEvents {
  /** The device started (after the jitter buffer filled, or on end()). */
  started: [];
  /**
   * The device ran dry while more audio was to come (the source fell behind real time). The player holds the next
   * audio until the jitter buffer's new, larger target is queued; nothing is dropped.
   */
  underrun: [info: { targetMs: number }];
  /** write() returned false earlier and the player can take more. */
  drain: [];
  /** Everything written was played (end()) or playback was stopped (stop()). */
  ended: [info: { stopped: boolean }];
  /** A typed error; the player is finished afterwards. Never thrown: always this event. */
  error: [error: PlayerError];
}

export interface Player {
  readonly sampleRate: number;
  /** Queues 16-bit mono samples (Int16Array, or s16le bytes). Returns false when the caller should wait for 'drain'. */
  write(pcm: Int16Array | Buffer): boolean;
  /** No more audio: pads with silence, plays everything out, then 'ended'. */
  end(): void;
  /** Stops at once, dropping what was not played; 'ended' with stopped: true. */
  stop(): void;
  on<E extends keyof PlayerEvents>(event: E, listener: (...args: PlayerEvents[E]) => void): this;
  once<E extends keyof PlayerEvents>(event: E, listener: (...args: PlayerEvents[E]) => void): this;
  off<E extends keyof PlayerEvents>(event: E, listener: (...args: PlayerEvents[E]) => void): this;
}
