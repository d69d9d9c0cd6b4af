/**
 * Separates a long recording window by window, so memory stays at one window (a Spleeter spectrogram of a whole song
 * is hundreds of MB), progress is reported and a cancel is seen between windows. Each window carries `margin` frames
 * of the neighbouring audio on both sides (silence at the ends of the recording); only its middle is kept. The
 * margins absorb what the models do at a window's edges — Spleeter's uncentred STFT leaves its first and last
 * ~4096 samples unusable — so the kept parts join without seams, and the stems have the recording's exact length.
 */
import type { SeparatedStem } from './separation-library.js';
import type { StereoBlock } from './stereo-decode.js';

/** Shortest window handed to a model (zero-padded): Spleeter needs at least one 4096-sample STFT frame. */
export const MIN_WINDOW_FRAMES = 16_384;

export type SeparateWindow = (window: StereoBlock) => SeparatedStem[];

/** The last `n` frames of a followed by b (zeros in front when both are shorter). */
function tailOf(a: StereoBlock, b: StereoBlock, n: number): StereoBlock {
  const out: StereoBlock = [new Float32Array(n), new Float32Array(n)];
  for (let c = 0; c < 2; c++) {
    const joined = new Float32Array(a[c]!.length + b[c]!.length);
    joined.set(a[c]!, 0);
    joined.set(b[c]!, a[c]!.length);
    const take = joined.subarray(Math.max(0, joined.length - n));
    out[c]!.set(take, n - take.length);
  }
  return out;
}

/** The first `n` frames of a block (zeros after when it is shorter). */
function headOf(block: StereoBlock | null, n: number): StereoBlock {
  const out: StereoBlock = [new Float32Array(n), new Float32Array(n)];
  if (block) for (let c = 0; c < 2; c++) out[c]!.set(block[c]!.subarray(0, n));
  return out;
}

/** Separates one core block with its margins; returns each stem's two channels cut to the core's length. */
export function separateWindow(before: StereoBlock, core: StereoBlock, after: StereoBlock, margin: number, separate: SeparateWindow): StereoBlock[] {
  const coreFrames = core[0].length;
  const length = Math.max(MIN_WINDOW_FRAMES, margin * 2 + coreFrames);
  const window: StereoBlock = [new Float32Array(length), new Float32Array(length)];
  for (let c = 0; c < 2; c++) {
    window[c]!.set(before[c]!, 0);
    window[c]!.set(core[c]!, margin);
    window[c]!.set(after[c]!, margin + coreFrames);
  }
  return separate(window).map((stem) => {
    const channels = stem.channels.length > 0 ? stem.channels : [new Float32Array(0)];
    const pick = (c: number): Float32Array => {
      const out = new Float32Array(coreFrames);
      out.set((channels[c] ?? channels[0]!).subarray(margin, margin + coreFrames));
      return out;
    };
    return [pick(0), pick(1)];
  });
}

/**
 * Yields, for each block of `blocks` in order, the stems of that block (each [left, right], the block's length).
 * A block is separated once the next one has arrived (its right margin), the last one at the end.
 */
export async function* separateBlocks(blocks: AsyncIterable<StereoBlock>, margin: number, separate: SeparateWindow): AsyncGenerator<{ frames: number; stems: StereoBlock[] }> {
  // The `margin` frames before the pending block: silence before the recording starts.
  let before: StereoBlock = [new Float32Array(margin), new Float32Array(margin)];
  let pending: StereoBlock | null = null;
  for await (const block of blocks) {
    if (pending) {
      yield { frames: pending[0].length, stems: separateWindow(before, pending, headOf(block, margin), margin, separate) };
      before = tailOf(before, pending, margin);
    }
    pending = block;
  }
  if (pending) yield { frames: pending[0].length, stems: separateWindow(before, pending, headOf(null, margin), margin, separate) };
}
