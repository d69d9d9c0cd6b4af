/** A two-hour recording for long-file tests and benchmarks: jfk.wav then 49 s of silence, looped (16 kHz WAV). */
import { join } from 'node:path';
import { SHARED } from './system.js';
import { ffmpeg } from './audio-fixtures.js';

export const LONG_SECONDS = 7200;

/** Writes `long.wav` (≈230 MB) into `dir` and returns its path. */
export function makeTwoHourFile(dir: string, seconds = LONG_SECONDS): string {
  const unit = join(dir, 'unit.wav');
  ffmpeg(['-i', join(SHARED, 'audio/jfk.wav'), '-af', 'apad=whole_dur=60', '-ar', '16000', '-ac', '1', unit]);
  const out = join(dir, 'long.wav');
  ffmpeg(['-stream_loop', '-1', '-i', unit, '-t', String(seconds), '-c:a', 'pcm_s16le', out]);
  return out;
}
