/** Options of the live WebSockets (text to speech and dictation), each with its default (docs/design.md §6.7: defaults in one place). */

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
  /**
   * Dictation: seconds of received audio that may wait for the recognizer while the client sends faster than real
   * time; a frame beyond that is refused with `audio_overrun` (service/live/dictation-frame-admission.ts). Default
   * 10 s (320 KB at 16 kHz).
   */
  dictationMaxBufferedSeconds: number;
  /**
   * Dictation: seconds of audio that may wait for a recognizer that falls behind a client sending in real time (a
   * microphone on a busy computer: its words are kept, not refused); beyond that, `audio_overrun`. Default 120 s
   * (3.75 MB at 16 kHz).
   */
  dictationMaxLagSeconds: number;
  /** Dictation: longest session (seconds of audio); then `audio_too_long` and the session ends. Default 4 h. */
  dictationMaxSessionSeconds: number;
  /** Dictation: how long the end of a session waits for the last finals before recording the job anyway (ms). Default 60 s. */
  dictationEndTimeoutMs: number;
  /** Dictation: the same wait when the service shuts down (it must not hold the shutdown long). Default 5 s. */
  dictationShutdownWaitMs: number;
  /**
   * Dictation: largest message read at all (bytes); ws closes the socket with 1009 above it. Frames between 64 KiB
   * (the protocol's limit) and this are refused with `frame_too_large` and the socket stays open. Default 1 MiB.
   */
  dictationHardMaxMessageBytes: number;
  /**
   * Live sessions one account may have open at once (each route counted apart): more are accepted and closed at
   * once with an `error` `too_many_sessions` and close code 1013 (try again later). Default 4 dictations, 8 speech.
   */
  dictationMaxSessionsPerAccount: number;
  speechMaxSessionsPerAccount: number;
  /** Live sessions the service keeps open at once, all accounts together. Default 16 dictations, 64 speech. */
  dictationMaxSessions: number;
  speechMaxSessions: number;
  /**
   * Dictation on a hosted model: seconds of audio reserved against the monthly cap at a time (the first chunk with
   * the request fee); the next chunk is reserved before the audio gets there (hosted-live-meter.ts). Default 300.
   */
  hostedLiveChunkSeconds: number;
}

export const DEFAULT_LIVE_OPTIONS: LiveOptions = {
  frameSamples: 1024,
  highWaterBytes: 256 * 1024,
  maxQueuedSpeaks: 32,
  maxMessageBytes: 64 * 1024,
  espeakThreads: 2,
  drainPollMs: 10,
  keyRecheckMs: 2000,
  dictationMaxBufferedSeconds: 10,
  dictationMaxLagSeconds: 120,
  dictationMaxSessionSeconds: 4 * 3600,
  dictationEndTimeoutMs: 60_000,
  dictationShutdownWaitMs: 5000,
  dictationHardMaxMessageBytes: 1024 * 1024,
  hostedLiveChunkSeconds: 300,
  dictationMaxSessionsPerAccount: 4,
  speechMaxSessionsPerAccount: 8,
  dictationMaxSessions: 16,
  speechMaxSessions: 64,
};

/** The live text-to-speech route's path. */
export const LIVE_PATH = '/v1/text-to-speech/realtime';
export { DICTATION_PATH } from '../../common/dictation-protocol.js';
