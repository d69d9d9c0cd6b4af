/**
 * Stereo decoding for stem separation, with Debian's ffmpeg and with the WASM decoders (the path of a machine
 * without ffmpeg): both channels kept apart, mono given twice, other rates resampled, blocks of the asked size.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeWav } from '../../../../src-main/engines/audio/wav.js';
import { decodeStereoBlocks, type StereoBlock } from '../../../../src-main/engines/separation/stereo-decode.js';

const dir = mkdtempSync(join(tmpdir(), 'voxdesk-stereo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, channels: Float32Array[], rate: number): string {
  const path = join(dir, name);
  writeFileSync(path, encodeWav(channels, rate));
  return path;
}

async function all(path: string, decoder: 'ffmpeg' | 'wasm', rate: number, blockFrames: number): Promise<{ blocks: StereoBlock[]; left: Float32Array; right: Float32Array }> {
  const blocks: StereoBlock[] = [];
  for await (const block of decodeStereoBlocks(path, { rate, blockFrames, decoder })) blocks.push(block);
  const join2 = (c: 0 | 1) => Float32Array.from(blocks.flatMap((b) => [...b[c]]));
  return { blocks, left: join2(0), right: join2(1) };
}

const n = 44100;
const left = Float32Array.from({ length: n }, (_, i) => 0.5 * Math.sin(i / 20));
const right = Float32Array.from({ length: n }, (_, i) => 0.25 * Math.cos(i / 7));

describe.each(['ffmpeg', 'wasm'] as const)('decodeStereoBlocks with %s', (decoder) => {
  it('keeps the two channels of a stereo WAV apart, in blocks of the asked size', async () => {
    const out = await all(file(`stereo-${decoder}.wav`, [left, right], 44100), decoder, 44100, 10_000);
    expect(out.blocks.slice(0, -1).every((b) => b[0].length === 10_000 && b[1].length === 10_000)).toBe(true);
    expect(out.left.length).toBe(n);
    for (const i of [100, 20_000, 44_000]) {
      expect(out.left[i]).toBeCloseTo(left[i]!, 3);
      expect(out.right[i]).toBeCloseTo(right[i]!, 3);
    }
  });

  it('gives a mono recording on both channels, and resamples 16 kHz to the asked rate', async () => {
    const mono = Float32Array.from({ length: 16000 }, (_, i) => 0.4 * Math.sin(i / 30));
    const out = await all(file(`mono-${decoder}.wav`, [mono], 16000), decoder, 44100, 8192);
    expect(Math.abs(out.left.length - 44100)).toBeLessThanOrEqual(64);
    expect(out.left).toEqual(out.right);
  });

  it('refuses a file that is not audio with audio_decode_failed', async () => {
    const path = join(dir, `notes-${decoder}.wav`);
    writeFileSync(path, 'not audio\n'.repeat(100));
    await expect(all(path, decoder, 44100, 8192)).rejects.toMatchObject({ code: 'audio_decode_failed' });
  });
});
