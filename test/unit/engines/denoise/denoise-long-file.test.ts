import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { floatToS16le } from '../../../../src-main/engines/audio/pcm.js';
import { NOISY_CLIP, readMono } from '../../../helpers/denoise-fixtures.js';
import { DENOISERS, runDenoiser } from '../../../helpers/run-denoiser.js';
import { pcm16WavHeader } from '../../../../src-main/engines/audio/wav-header.js';
import { scaled } from '../../../helpers/time-scale.js';

const root = mkdtempSync(join(tmpdir(), 'voxdesk-denoise-long-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const MINUTES = 10;
const RATE = 16000;

/** A WAV of the shared noisy clip looped for `minutes`, written block by block (the test holds no long array). */
function writeLongWav(path: string, minutes: number): number {
  const clip = readMono(NOISY_CLIP).samples;
  const frames = minutes * 60 * RATE;
  const header = pcm16WavHeader(RATE, 1, frames * 2);
  const fd = openSync(path, 'w');
  writeSync(fd, header);
  for (let written = 0; written < frames; ) {
    const n = Math.min(clip.length, frames - written);
    writeSync(fd, floatToS16le(clip.subarray(0, n)));
    written += n;
  }
  closeSync(fd);
  return frames;
}

describe(`a ${MINUTES}-minute file`, () => {
  const file = join(root, 'long.wav');
  const frames = writeLongWav(file, MINUTES);

  it.each(DENOISERS)('%s denoises it whole, in steady memory', { timeout: scaled(600_000) } /* ~45 s when quiet; a busy shared machine stretches it five-fold and more */, async (kind) => {
    const rss: { at: number; bytes: number }[] = [];
    const { output } = await runDenoiser(kind, file, root, {
      onProgress: (at) => rss.push({ at, bytes: process.memoryUsage().rss }),
    });
    expect(output.durationSeconds).toBe(MINUTES * 60);
    const artifact = output.artifacts[0]!;
    expect(statSync(artifact.path).size).toBe(44 + frames * 2);
    // The tail was denoised too (not zeros): read the last second.
    const tail = Buffer.alloc(RATE * 2);
    const fd = openSync(artifact.path, 'r');
    readSync(fd, tail, 0, tail.length, 44 + (frames - RATE) * 2);
    closeSync(fd);
    expect(tail.some((b) => b !== 0)).toBe(true);
    // Steady: memory after the first tenth of the file does not grow with the rest of it. The whole decoded file
    // would be 38 MB at 16 kHz (115 MB at RNNoise's 48 kHz); growth stays far below.
    const settled = rss.filter((r) => r.at >= 0.1 && r.at < 0.15).map((r) => r.bytes);
    const later = rss.filter((r) => r.at >= 0.15).map((r) => r.bytes);
    const growth = Math.max(...later) - Math.min(...settled);
    console.log(`${kind}: rss growth after the first tenth ${(growth / 1e6).toFixed(1)} MB, peak ${(Math.max(...later) / 1e6).toFixed(0)} MB`);
    expect(growth).toBeLessThan(25e6);
  });
});
