/**
 * Meeting capture's settings, each with its default (docs/design.md §6.7). `ServiceConfig.capture` overrides them.
 */
import { DEFAULT_CHUNK_SECONDS } from '../../engines/capture/chunked-recording.js';
import { DEFAULT_SILENT_SECONDS } from '../../engines/capture/silence-watch.js';

export interface CaptureOptions {
  /** Audio kept in memory before it is committed to disk: what a crash can lose at most. Default 2 s. */
  chunkSeconds: number;
  /** One side silent this long while the other talks raises the `silent_side` warning. Default 60 s. */
  silentSeconds: number;
  /** A capture stops by itself after this much audio (a forgotten one does not fill the disk). Default 8 h. */
  maxSeconds: number;
  /** How long stop waits for the recognizers' last finals. Default 20 s. */
  endTimeoutMs: number;
  /** How often the socket gets the two sides' levels. Default 250 ms. */
  levelsIntervalMs: number;
  /** The environment the sound server's tools run with (PULSE_SERVER, XDG_RUNTIME_DIR). Default process.env. */
  env: NodeJS.ProcessEnv;
  /** The OS the service runs on: the sound server records on Linux only. Default process.platform. */
  platform: NodeJS.Platform;
}

export const DEFAULT_CAPTURE_OPTIONS: CaptureOptions = {
  chunkSeconds: DEFAULT_CHUNK_SECONDS,
  silentSeconds: DEFAULT_SILENT_SECONDS,
  maxSeconds: 8 * 3600,
  endTimeoutMs: 20_000,
  levelsIntervalMs: 250,
  env: process.env,
  platform: process.platform,
};
