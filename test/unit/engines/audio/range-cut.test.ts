/**
 * The range of a recording a re-transcription runs on (range-cut.ts): exactly the samples between start and end at
 * 16 kHz, the same samples the whole recording's decode has there, shorter when the recording ends sooner, and a
 * clear failure for a range past the end.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeBlocks } from '../../../../src-main/engines/audio/decode.js';
import { s16leToFloat } from '../../../../src-main/engines/audio/pcm.js';
import { cutRange, rangeSamples } from '../../../../src-main/engines/audio/range-cut.js';
import { JFK, makeTempDir } from '../../../helpers/audio-fixtures.js';

const temp = makeTempDir('voxdesk-range-cut-');
afterAll(() => temp.cleanup());

async function whole(file: string): Promise<Float32Array> {
  const blocks: Float32Array[] = [];
  for await (const block of decodeBlocks(file)) blocks.push(block);
  const out = new Float32Array(blocks.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const block of blocks) {
    out.set(block, at);
    at += block.length;
  }
  return out;
}

describe('cutRange', () => {
  it('writes exactly the range\'s samples, as PCM16 at 16 kHz', async () => {
    const out = join(temp.dir, 'range.wav');
    expect(await cutRange(JFK, { start: 1.25, end: 3.5 }, out)).toBe(2.25);
    const wav = readFileSync(out);
    expect(wav.readUInt32LE(24)).toBe(16_000);
    const samples = s16leToFloat(wav.subarray(44));
    expect(samples.length).toBe(rangeSamples({ start: 1.25, end: 3.5 }).count);
    const all = await whole(JFK);
    const expected = all.subarray(20_000, 56_000);
    let worst = 0;
    for (let i = 0; i < samples.length; i++) worst = Math.max(worst, Math.abs(samples[i]! - expected[i]!));
    expect(worst).toBeLessThanOrEqual(1 / 32768 + 1e-6); // only PCM16 rounding
  });

  it('stops at the recording\'s end when the range reaches past it', async () => {
    const seconds = await cutRange(JFK, { start: 10, end: 60 }, join(temp.dir, 'tail.wav'));
    expect(seconds).toBeGreaterThan(0.9);
    expect(seconds).toBeLessThan(1.1);
  });

  it('a range that starts after the end fails with audio_decode_failed and leaves no file', async () => {
    const out = join(temp.dir, 'none.wav');
    await expect(cutRange(JFK, { start: 30, end: 40 }, out)).rejects.toMatchObject({ code: 'audio_decode_failed', message: expect.stringMatching(/starts after the recording's end/) });
    expect(() => readFileSync(out)).toThrow();
  });
});
