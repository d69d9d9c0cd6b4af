/**
 * Blends the denoised (wet) stream with the original (dry) one: out = strength·wet + (1 − strength)·dry. The wet
 * stream lags behind the dry one by the latency of its stages, so dry blocks wait in a queue until their wet
 * counterpart arrives; the queue holds only that latency. The output has exactly as many samples as the dry input.
 */
export class DryWetMixer {
  private readonly queue: Float32Array[] = [];
  private queueOffset = 0;
  private dryTotal = 0;
  private outTotal = 0;

  constructor(private readonly strength: number) {}

  pushDry(block: Float32Array): void {
    this.queue.push(block);
    this.dryTotal += block.length;
  }

  /** Mixes `wet` with the oldest queued dry samples (extra wet beyond the dry input is dropped). */
  mix(wet: Float32Array): Float32Array {
    const count = Math.min(wet.length, this.dryTotal - this.outTotal);
    const out = new Float32Array(count);
    const s = this.strength;
    for (let i = 0; i < count; i++) out[i] = s * wet[i]! + (1 - s) * this.nextDry();
    this.outTotal += count;
    return out;
  }

  /** After the wet stream has ended: dry samples it did not cover (rounding) are mixed with silence. */
  end(): Float32Array {
    return this.mix(new Float32Array(this.dryTotal - this.outTotal));
  }

  private nextDry(): number {
    let head = this.queue[0]!;
    while (this.queueOffset >= head.length) {
      this.queue.shift();
      this.queueOffset = 0;
      head = this.queue[0]!;
    }
    return head[this.queueOffset++]!;
  }
}
