/** Window-by-window separation keeps every frame once, in order, with the neighbours' audio as margins. */
import { describe, expect, it } from 'vitest';
import type { SeparatedStem } from '../../../../src-main/engines/separation/separation-library.js';
import { MIN_WINDOW_FRAMES, separateBlocks } from '../../../../src-main/engines/separation/separation-windows.js';
import type { StereoBlock } from '../../../../src-main/engines/separation/stereo-decode.js';

async function* blocksOf(left: Float32Array, right: Float32Array, size: number): AsyncGenerator<StereoBlock> {
  for (let i = 0; i < left.length; i += size) yield [left.slice(i, i + size), right.slice(i, i + size)];
}

/** A stand-in model at this pure-logic level: stem 0 is the window itself, stem 1 its negation. */
function mirror(windows: StereoBlock[]) {
  return (window: StereoBlock): SeparatedStem[] => {
    windows.push(window);
    return [{ channels: [window[0], window[1]] }, { channels: [window[0].map((v) => -v), window[1].map((v) => -v)] }];
  };
}

async function run(n: number, block: number, margin: number) {
  const left = Float32Array.from({ length: n }, (_, i) => i + 1);
  const right = Float32Array.from({ length: n }, (_, i) => -(i + 1));
  const windows: StereoBlock[] = [];
  const out: StereoBlock[][] = [];
  for await (const piece of separateBlocks(blocksOf(left, right, block), margin, mirror(windows))) {
    expect(piece.stems.every((s) => s[0].length === piece.frames && s[1].length === piece.frames)).toBe(true);
    out.push(piece.stems);
  }
  const joined = (stem: number, channel: number) => Float32Array.from(out.flatMap((s) => [...s[stem]![channel]!]));
  return { left, right, windows, joined };
}

describe('separateBlocks', () => {
  it('gives back every frame once, in order, for each stem and channel', async () => {
    const { left, right, joined } = await run(100_000, 30_000, 2_000);
    expect(joined(0, 0)).toEqual(left);
    expect(joined(0, 1)).toEqual(right);
    expect(joined(1, 0)).toEqual(left.map((v) => -v));
  });

  it('hands the model each block with the neighbouring frames as margins, silence at the ends', async () => {
    const { windows } = await run(100_000, 30_000, 2_000);
    expect(windows).toHaveLength(4);
    // The first window starts with 2000 frames of silence, then frame 1.
    expect(windows[0]![0].subarray(0, 2000).every((v) => v === 0)).toBe(true);
    expect(windows[0]![0][2000]).toBe(1);
    // Its right margin is the next block's first frames (frame 30001 …).
    expect(windows[0]![0][2000 + 30_000]).toBe(30_001);
    // The second window's left margin is the end of the first block.
    expect(windows[1]![0][0]).toBe(30_000 - 2000 + 1);
    // The last (short) block is padded with silence after its right margin.
    const last = windows[3]!;
    expect(last[0][2000]).toBe(90_001);
    expect(last[0][2000 + 10_000]).toBe(0);
  });

  it('pads windows shorter than one model frame, and handles a recording shorter than a margin', async () => {
    const { left, windows, joined } = await run(500, 30_000, 2_000);
    expect(windows).toHaveLength(1);
    expect(windows[0]![0].length).toBe(MIN_WINDOW_FRAMES);
    expect(joined(0, 0)).toEqual(left);
  });

  it('yields nothing for no audio', async () => {
    const { windows, joined } = await run(0, 30_000, 2_000);
    expect(windows).toHaveLength(0);
    expect(joined(0, 0)).toHaveLength(0);
  });
});
