/**
 * Whether the hosted service answers, learned from real request failures (refused, reset, timed out, 502/503/504).
 * Once it is unreachable, jobs wait with `waiting_for_network` (the runner's readiness) and a probe — a real
 * request, the public catalogue fetch — is retried with backoff until the service answers again.
 */
import type { RemoteOptions } from './remote-options.js';

export interface ConnectivityState {
  /** null until the first request; false after a network failure until something answers again. */
  reachable: boolean | null;
  lastOkAt: string | null;
  lastError: string | null;
}

export class Connectivity {
  private current: ConnectivityState = { reachable: null, lastOkAt: null, lastError: null };
  private probeTimer: NodeJS.Timeout | undefined;
  private probeDelay: number;
  private stopped = false;

  constructor(
    /** A real request to the hosted service; resolves when it answered. */
    private readonly probe: () => Promise<void>,
    private readonly options: Pick<RemoteOptions, 'offlineInitialMs' | 'offlineMaxMs'>,
  ) {
    this.probeDelay = options.offlineInitialMs;
  }

  ok(): void {
    this.current = { reachable: true, lastOkAt: new Date().toISOString(), lastError: null };
    this.probeDelay = this.options.offlineInitialMs;
    if (this.probeTimer) clearTimeout(this.probeTimer);
    this.probeTimer = undefined;
  }

  unreachable(message: string): void {
    this.current = { ...this.current, reachable: false, lastError: message };
    this.scheduleProbe();
  }

  /** A new endpoint: nothing is known about it yet. */
  reset(): void {
    if (this.probeTimer) clearTimeout(this.probeTimer);
    this.probeTimer = undefined;
    this.probeDelay = this.options.offlineInitialMs;
    this.current = { reachable: null, lastOkAt: null, lastError: null };
  }

  stop(): void {
    this.stopped = true;
    if (this.probeTimer) clearTimeout(this.probeTimer);
    this.probeTimer = undefined;
  }

  state(): ConnectivityState {
    return { ...this.current };
  }

  private scheduleProbe(): void {
    if (this.probeTimer || this.stopped) return;
    const delay = this.probeDelay;
    this.probeDelay = Math.min(this.options.offlineMaxMs, this.probeDelay * 2);
    this.probeTimer = setTimeout(() => {
      this.probeTimer = undefined;
      this.probe().then(
        () => this.ok(),
        (error: unknown) => this.unreachable((error as Error).message),
      );
    }, delay);
    this.probeTimer.unref();
  }
}
