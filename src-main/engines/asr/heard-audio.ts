/**
 * The audio a streaming decoder (PocketSphinx, a sherpa-onnx online recognizer) has heard since the last utterance it
 * closed, so that a doubtful utterance can be decoded again from its own samples (pocketsphinx-redecode.ts,
 * streaming-redecode.ts). Positions count samples from the decoder's start; at most HEARD_SECONDS are kept.
 */
import { ASR_SAMPLE_RATE } from '../audio/decode.js';

/** The most audio kept (about 19 MB of samples): a long silence without an utterance does not pile up; a longer utterance is not retried. */
export const HEARD_SECONDS = 300;

/** The recording's samples from a moving start: what a streaming decoder has heard since its last closed utterance. */
export class HeardAudio {
  private chunks: Float32Array[] = [];
  /** The sample (counted from the decoder's begin()) the first chunk starts at. */
  private from = 0;
  private length = 0;

  /** Samples as they were fed: PCM16 (PocketSphinx) or −1..1 floats (sherpa-onnx). */
  push(block: Int16Array | Float32Array): void {
    this.chunks.push(block instanceof Float32Array ? block.slice() : Float32Array.from(block, (v) => v / 32768));
    this.length += block.length;
    this.dropBefore(this.from + this.length - HEARD_SECONDS * ASR_SAMPLE_RATE);
  }

  /** Samples [start, end) (clipped to what is kept) as −1..1 floats, and where they start. */
  slice(start: number, end: number): { at: number; samples: Float32Array } {
    const a = Math.max(this.from, start);
    const b = Math.min(this.from + this.length, end);
    const out = new Float32Array(Math.max(0, b - a));
    let offset = this.from;
    for (const chunk of this.chunks) {
      const lo = Math.max(a, offset);
      const hi = Math.min(b, offset + chunk.length);
      if (hi > lo) out.set(chunk.subarray(lo - offset, hi - offset), lo - a);
      offset += chunk.length;
      if (offset >= b) break;
    }
    return { at: a, samples: out };
  }

  /** Forgets what lies before `sample` (an utterance closed there). */
  dropBefore(sample: number): void {
    while (this.chunks.length > 0 && this.from + this.chunks[0]!.length <= sample) {
      this.from += this.chunks[0]!.length;
      this.length -= this.chunks[0]!.length;
      this.chunks.shift();
    }
  }
}
