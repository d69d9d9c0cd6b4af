/**
 * Keeps the two sides of a capture in step: each side's source delivers PCM16 in its own rhythm, the recording and
 * the recognizers need both sides sample for sample (a final's times are times in the recording). Samples leave in
 * pairs: as many as both sides have. A side that falls more than `maxSkewSeconds` behind the other (its device
 * stalled) or has ended (unplugged, muted by the server) is filled with silence, so the other side goes on and the
 * two stay aligned to the clock of the one that runs.
 */

export interface AlignedBlock {
  /** Equal lengths, PCM16 mono each. */
  microphone: Buffer;
  system: Buffer;
}

/** How far one side may run ahead before the other is filled with silence. Default 1 s. */
export const DEFAULT_MAX_SKEW_SECONDS = 1;

export class ChannelAligner {
  private readonly queues: [Buffer[], Buffer[]] = [[], []];
  private readonly queued: [number, number] = [0, 0];
  private readonly endedSides: [boolean, boolean] = [false, false];
  private readonly maxSkewBytes: number;

  constructor(
    sampleRate: number,
    private readonly emit: (block: AlignedBlock) => void,
    maxSkewSeconds = DEFAULT_MAX_SKEW_SECONDS,
  ) {
    this.maxSkewBytes = Math.round(maxSkewSeconds * sampleRate) * 2;
  }

  /** PCM16 of one side (0 = microphone, 1 = system); whole samples. */
  push(side: 0 | 1, pcm: Buffer): void {
    if (pcm.length === 0) return;
    this.queues[side].push(pcm);
    this.queued[side] += pcm.length;
    this.drain();
  }

  /** The side delivers no more: from now on it is silence beside the other. */
  end(side: 0 | 1): void {
    this.endedSides[side] = true;
    this.drain();
  }

  /** Whether a side has ended. */
  hasEnded(side: 0 | 1): boolean {
    return this.endedSides[side];
  }

  /** The capture stops: what one side has beyond the other leaves with silence beside it. */
  flush(): void {
    const bytes = Math.max(this.queued[0], this.queued[1]);
    if (bytes > 0) this.release(bytes, true);
  }

  private drain(): void {
    const [a, b] = this.queued;
    const both = Math.min(a, b);
    if (both > 0) this.release(both, false);
    for (const side of [0, 1] as const) {
      const other = (1 - side) as 0 | 1;
      const ahead = this.queued[other] - this.queued[side];
      if (ahead <= 0) continue;
      if (this.endedSides[side]) this.release(this.queued[other], true);
      else if (ahead > this.maxSkewBytes) this.release(ahead - this.maxSkewBytes + this.queued[side], true);
    }
  }

  /** Sends `bytes` of each side, a side with fewer queued getting silence after its own (only when `pad`). */
  private release(bytes: number, pad: boolean): void {
    const out = [this.take(0, bytes, pad), this.take(1, bytes, pad)] as const;
    this.emit({ microphone: out[0], system: out[1] });
  }

  private take(side: 0 | 1, bytes: number, pad: boolean): Buffer {
    const queue = this.queues[side];
    const have = Math.min(bytes, this.queued[side]);
    if (!pad && have < bytes) throw new Error('aligner: not enough audio queued');
    const out = Buffer.alloc(bytes);
    let at = 0;
    while (at < have) {
      const head = queue[0]!;
      const n = Math.min(head.length, have - at);
      head.copy(out, at, 0, n);
      at += n;
      if (n === head.length) queue.shift();
      else queue[0] = head.subarray(n);
    }
    this.queued[side] -= have;
    return out;
  }
}
