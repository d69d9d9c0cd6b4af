/**
 * Which engine kinds are cheap: a running average of each kind's recent run times. The worker pool lets a cheap
 * kind's tasks wait in a busy worker's line (their results then reach the job engine together and are settled in one
 * commit), and keeps expensive ones to idle workers, where a long task never holds up another.
 */
import type { EngineKind } from '../engine-types.js';

/** Engine kinds whose recent runs took less than this on average are cheap: their tasks may wait in a worker's line. */
export const CHEAP_TASK_MS = 25;
/** Runs of a kind measured before it can count as cheap, and the weight of the newest one in the running average. */
const CHEAP_AFTER_RUNS = 3;
const AVERAGE_WEIGHT = 0.2;

export class EngineRunTimes {
  private readonly byKind = new Map<EngineKind, { averageMs: number; runs: number }>();

  constructor(private readonly cheapTaskMs = CHEAP_TASK_MS) {}

  /** Whether tasks of this engine kind have lately run for less than `cheapTaskMs` on average. */
  cheap(kind: EngineKind): boolean {
    const times = this.byKind.get(kind);
    return times !== undefined && times.runs >= CHEAP_AFTER_RUNS && times.averageMs < this.cheapTaskMs;
  }

  /** Counts one run of `kind` that took `ms`. */
  record(kind: EngineKind, ms: number): void {
    const times = this.byKind.get(kind);
    if (!times) this.byKind.set(kind, { averageMs: ms, runs: 1 });
    else {
      times.averageMs += AVERAGE_WEIGHT * (ms - times.averageMs);
      times.runs++;
    }
  }
}
