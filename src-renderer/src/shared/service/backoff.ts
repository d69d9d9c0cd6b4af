/**
 * Polling with backoff (the service has no event stream for HTTP jobs): poll fast while something is active,
 * slow down geometrically while nothing changes, and go back to fast on any change or user action.
 */
export interface BackoffOptions {
  /** First and "something changed" delay, ms. Default 500. */
  minMs?: number;
  /** Ceiling while nothing changes, ms. Default 8000. */
  maxMs?: number;
  /** Growth per unchanged poll. Default 1.6. */
  factor?: number;
}

export class Backoff {
  private readonly minMs: number;
  private readonly maxMs: number;
  private readonly factor: number;
  private current: number;

  constructor(options: BackoffOptions = {}) {
    this.minMs = options.minMs ?? 500;
    this.maxMs = options.maxMs ?? 8000;
    this.factor = options.factor ?? 1.6;
    this.current = this.minMs;
  }

  /** Delay before the next poll, given whether the last poll saw a change. */
  next(changed: boolean): number {
    this.current = changed ? this.minMs : Math.min(this.maxMs, Math.round(this.current * this.factor));
    return this.current;
  }

  reset(): void {
    this.current = this.minMs;
  }
}

/** A cheap fingerprint of a job list to tell "changed" from "unchanged". */
export function fingerprint(items: readonly { id: string; status: string; progress?: number | null }[]): string {
  return items.map((i) => `${i.id}:${i.status}:${i.progress ?? ''}`).join('|');
}
