import { describe, expect, it } from 'vitest';
import { resampleMono } from '../../../../src-main/engines/audio/resample.js';
import type { BlockProcessor } from '../../../../src-main/engines/audio/block-processor.js';
import { DryWetMixer } from '../../../../src-main/engines/denoise/dry-wet-mixer.js';
import { createGtcrnStream } from '../../../../src-main/engines/denoise/gtcrn-processor.js';
import { createRNNoiseStream } from '../../../../src-main/engines/denoise/rnnoise-processor.js';
import { concat, createStreamResampler } from '../../../../src-main/engines/audio/stream-resampler.js';
import { GTCRN_MODEL, NOISY_CLIP, readMono } from '../../../helpers/denoise-fixtures.js';

/** Pushes `input` in blocks of the given (cycling) sizes and returns everything the stage gave back. */
function stream(stage: BlockProcessor, input: Float32Array, sizes: number[]): Float32Array {
  const parts: Float32Array[] = [];
  for (let at = 0, k = 0; at < input.length; k++) {
    const n = sizes[k % sizes.length]!;
    parts.push(stage.push(input.subarray(at, at + n)));
    at += n;
  }
  parts.push(stage.finish());
  return concat(parts);
}

const clip = readMono(NOISY_CLIP).samples;
const ODD_BLOCKS = [1, 479, 4801, 333, 16000];

describe('stream resampler', () => {
  it.each([
    [16000, 48000],
    [48000, 16000],
    [44100, 16000],
    [16000, 22050],
  ])('%i → %i Hz in odd blocks: exact length, same samples as one pass', async (from, to) => {
    const streamed = stream(await createStreamResampler(from, to), clip, ODD_BLOCKS);
    const whole = await resampleMono(clip, from, to);
    expect(streamed.length).toBe(Math.round((clip.length * to) / from));
    let worst = 0;
    for (let i = 0; i < whole.length; i++) worst = Math.max(worst, Math.abs(streamed[i]! - whole[i]!));
    expect(worst).toBeLessThan(1e-4);
  });
});

describe('denoiser stages', () => {
  it('RNNoise returns as many samples as it gets, whatever the block sizes, and is deterministic', async () => {
    const at48 = await resampleMono(clip, 16000, 48000);
    const a = stream(await createRNNoiseStream(), at48, ODD_BLOCKS);
    const b = stream(await createRNNoiseStream(), at48, [48000]);
    expect(a.length).toBe(at48.length);
    expect(b).toEqual(a);
  });

  it('GTCRN streamed in odd blocks has the input length and matches one big block', () => {
    const a = stream(createGtcrnStream(GTCRN_MODEL), clip, ODD_BLOCKS);
    const b = stream(createGtcrnStream(GTCRN_MODEL), clip, [clip.length]);
    expect(a.length).toBe(clip.length);
    expect(b.length).toBe(clip.length);
    let worst = 0;
    for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
    expect(worst).toBeLessThan(1e-3);
  });
});

describe('dry/wet mixer', () => {
  it('aligns a lagging wet stream with the dry one and keeps the dry length', () => {
    const mixer = new DryWetMixer(0.25);
    const dry = Float32Array.from({ length: 10 }, (_, i) => i);
    mixer.pushDry(dry.subarray(0, 6));
    const first = mixer.mix(new Float32Array(4).fill(100));
    mixer.pushDry(dry.subarray(6));
    const second = mixer.mix(new Float32Array(7).fill(100)); // one wet sample too many: dropped
    const out = concat([first, second, mixer.end()]);
    expect(Array.from(out)).toEqual(Array.from(dry, (d) => 0.25 * 100 + 0.75 * d));
  });
});
