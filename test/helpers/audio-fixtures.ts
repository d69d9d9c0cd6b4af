/** Audio fixtures made from ../shared/audio/jfk.wav with Debian's ffmpeg in a temp dir (tests only). */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireCommand, SHARED } from './system.js';

export const JFK = join(SHARED, 'audio/jfk.wav');

/** ffmpeg output options per container; video containers get a still black picture track. */
export const FORMATS = {
  wav: ['-c:a', 'pcm_s16le', '-ar', '44100', '-ac', '2'],
  mp3: ['-c:a', 'libmp3lame', '-b:a', '64k'],
  flac: ['-c:a', 'flac'],
  ogg: ['-c:a', 'libvorbis', '-q:a', '3'],
  opus: ['-c:a', 'libopus', '-b:a', '32k'],
  m4a: ['-c:a', 'aac', '-b:a', '64k'],
  webm: ['-c:a', 'libopus', '-b:a', '32k'],
  mp4: ['-c:a', 'aac', '-b:a', '64k'],
} as const;
export type FixtureFormat = keyof typeof FORMATS;

export function makeTempDir(prefix: string): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function ffmpeg(args: string[]): void {
  execFileSync(requireCommand('ffmpeg'), ['-nostdin', '-v', 'error', '-y', ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
}

/** jfk.wav converted to `format` inside `dir`. */
export function makeFixture(dir: string, format: FixtureFormat, source = JFK): string {
  const out = join(dir, `jfk.${format}`);
  const video = format === 'mp4' ? ['-f', 'lavfi', '-i', 'color=c=black:s=64x64:r=5', '-shortest', '-c:v', 'mpeg4'] : [];
  ffmpeg(['-i', source, ...video, ...FORMATS[format], out]);
  return out;
}
