/**
 * The one retry loop of hosted calls, shared by a forwarded job (Follower) and a forwarded batch (BatchCoordinator):
 * a hosted 500 is retried `serverErrorRetries` times with a doubling delay (offlineInitialMs up to offlineMaxMs);
 * network failures and rejections are thrown at once (the run ends waiting_for_network, or fails with the hosted
 * code). Any answer, even a rejection, proves the hosted service reachable. The pause between tries ends early,
 * rejecting with the signal's reason, when `signal` aborts (a cancel, or the provider stopping).
 */
import { sleep } from './abortable-sleep.js';
import type { Connectivity } from './connectivity.js';
import { RemoteError } from './remote-errors.js';
import type { RemoteOptions } from './remote-options.js';

export interface ServerRetry {
  options: Pick<RemoteOptions, 'offlineInitialMs' | 'offlineMaxMs' | 'serverErrorRetries'>;
  connectivity: Pick<Connectivity, 'ok'>;
  /** Aborts the call and the pause between tries; once aborted, a failure is thrown as it is. */
  signal: AbortSignal;
  /** Told of each hosted 500 that will be retried, with the pause before the next try (awaited: it records it). */
  onRetry(error: RemoteError, delayMs: number): Promise<void>;
}

export async function withServerRetry<T>(retry: ServerRetry, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const { offlineInitialMs, offlineMaxMs, serverErrorRetries } = retry.options;
  let delay = offlineInitialMs;
  for (let serverErrors = 0; ; serverErrors++) {
    try {
      const value = await call(retry.signal);
      retry.connectivity.ok();
      return value;
    } catch (error) {
      if (retry.signal.aborted || !(error instanceof RemoteError) || error.kind !== 'server' || serverErrors >= serverErrorRetries) {
        if (error instanceof RemoteError && error.kind !== 'network') retry.connectivity.ok();
        throw error;
      }
      await retry.onRetry(error, delay);
      await sleep(delay, retry.signal);
      delay = Math.min(offlineMaxMs, delay * 2);
    }
  }
}
