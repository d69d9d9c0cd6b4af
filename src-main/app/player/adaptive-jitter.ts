/**
 * How much audio the player holds before it starts (or resumes) the device: the adaptive jitter buffer's policy.
 *
 * Live speech wants the first sound as early as possible, and eSpeak delivers a whole sentence in a burst far faster
 * than real time, so a fixed cushion mostly adds delay. The target therefore starts small and grows only when the
 * device actually ran dry while more audio was coming (an underrun: the network or the synthesizer fell behind real
 * time), and it shrinks back slowly, by a little for every second played without one, so one bad moment does not
 * cost every later sentence. One policy object is shared by every player of a live session, so what was learnt on
 * one utterance applies to the next. Pure state: no clock, no I/O (the player measures, this decides).
 */

export interface AdaptiveJitterOptions {
  /** Target at the start and the floor it shrinks back to (ms). Default 20. */
  startMs?: number;
  /** Ceiling of the target (ms). Default 400. */
  maxMs?: number;
  /** An underrun raises the target by max(this, the current target) — i.e. at least doubles it (ms). Default 40. */
  growMs?: number;
  /** Shrink per second of audio played without an underrun (ms). Default 2. */
  shrinkMsPerSecond?: number;
}

export const DEFAULT_ADAPTIVE_JITTER = {
  startMs: 20,
  maxMs: 400,
  growMs: 40,
  shrinkMsPerSecond: 2,
} as const;

export class AdaptiveJitter {
  private readonly options: Required<AdaptiveJitterOptions>;
  private target: number;
  private underrunCount = 0;

  constructor(options: AdaptiveJitterOptions = {}) {
    this.options = { ...DEFAULT_ADAPTIVE_JITTER, ...options };
    const { startMs, maxMs, growMs, shrinkMsPerSecond } = this.options;
    for (const [name, value] of Object.entries({ startMs, maxMs, growMs, shrinkMsPerSecond })) {
      if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a finite number ≥ 0 (got ${value})`);
    }
    if (maxMs < startMs) throw new RangeError(`maxMs (${maxMs}) must not be below startMs (${startMs})`);
    this.target = startMs;
  }

  /** Audio to hold before starting or resuming the device (ms). */
  get targetMs(): number {
    return this.target;
  }

  /** Underruns seen since this policy was made (all players sharing it). */
  get underruns(): number {
    return this.underrunCount;
  }

  /** The device ran dry while more audio was to come: hold more from now on. */
  underrun(): void {
    this.underrunCount++;
    this.target = Math.min(this.options.maxMs, this.target + Math.max(this.options.growMs, this.target));
  }

  /** `ms` of audio were played without an underrun: drift back towards the start value. */
  playedCleanly(ms: number): void {
    if (!(ms > 0)) return;
    this.target = Math.max(this.options.startMs, this.target - (this.options.shrinkMsPerSecond * ms) / 1000);
  }
}
