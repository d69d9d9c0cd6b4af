/** Options of the live text-to-speech WebSocket, each with its default (docs/design.md §6.7: defaults in one place). */

export interface LiveOptions {
  /** Samples per binary frame (every frame of a response has this size except its last). Default 1024 (46 ms at 22.05 kHz). */
  frameSamples: number;
  /**
   * Back-pressure bound: while the socket's bufferedAmount exceeds this many bytes the session stops sending and
   * does not start synthesizing the next sentence. Default 256 KiB (~6 s of 22.05 kHz PCM16). The memory a slow
   * client can make the server hold is this plus one sentence (≤ 300 characters) of audio.
   */
  highWaterBytes: number;
  /** Speaks queued per session beyond the one being spoken; more gets error `queue_full`. Default 32. */
  maxQueuedSpeaks: number;
  /** Largest client message (bytes); ws closes the socket with 1009 above it. Default 64 KiB. */
  maxMessageBytes: number;
  /** eSpeak NG worker threads shared by all sessions. Default 2 (the machine's cores). */
  espeakThreads: number;
  /** How often a blocked session re-checks bufferedAmount (ms). Default 10. */
  drainPollMs: number;
  /**
   * How often open sessions re-check that their API key is still valid (ms), to end the sessions of a key revoked
   * by another process (`voxdesk keys revoke`); a revocation through the service ends them at once. Default 2000.
   */
  keyRecheckMs: number;
}

export const DEFAULT_LIVE_OPTIONS: LiveOptions = {
  frameSamples: 1024,
  highWaterBytes: 256 * 1024,
  maxQueuedSpeaks: 32,
  maxMessageBytes: 64 * 1024,
  espeakThreads: 2,
  drainPollMs: 10,
  keyRecheckMs: 2000,
};

/** The live route's path. */
export const LIVE_PATH = '/v1/text-to-speech/realtime';
