/**
 * Guessing keys is made slow and blind. Per client address, more than MAX_FAILURES failed key checks (wrong API
 * keys, wrong browser-login tokens) within WINDOW_MS and the address is blocked until the oldest failure leaves the
 * window: its requests get 429 rate_limited with Retry-After.
 *
 * Valid keys are unaffected: a key that worked from that address before the block (the person's browser, their
 * scripts) keeps working during it. A valid key *not* seen from the address before is refused like a wrong one while
 * the block lasts — otherwise the block would answer 429 for wrong guesses and 200 for the right one, and guessing
 * would go on at full speed. (Keys are 190 random bits, or at least 24 characters when chosen; the limit is a second
 * wall, not the first.) Everything is in memory and bounded: MAX_ADDRESSES addresses, KNOWN_PER_ADDRESS keys each.
 */

/** Failed checks an address may make within WINDOW_MS; the next ones are refused. Default 50. */
export const MAX_FAILURES = 50;
/** The sliding window failures are counted in. Default 60 s. */
export const WINDOW_MS = 60_000;
/** Addresses remembered at once (the oldest is forgotten first). Default 10 000. */
export const MAX_ADDRESSES = 10_000;
/** Working keys remembered per address. Default 32. */
export const KNOWN_PER_ADDRESS = 32;

interface AddressState {
  /** Times of the failures still in the window, oldest first (at most maxFailures + 1). */
  failures: number[];
  /** Keys (ids) that worked from this address, in the order last used. */
  known: string[];
}

export type AuthVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface FailedAuthLimiterOptions {
  maxFailures?: number;
  windowMs?: number;
  now?: () => number;
}

export class FailedAuthLimiter {
  private readonly addresses = new Map<string, AddressState>();
  private readonly maxFailures: number;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(options: FailedAuthLimiterOptions = {}) {
    this.maxFailures = options.maxFailures ?? MAX_FAILURES;
    this.windowMs = options.windowMs ?? WINDOW_MS;
    this.now = options.now ?? Date.now;
  }

  /**
   * The verdict on one key check from `address`: `keyId` is the id of the key that matched (any stable string per
   * key), or null when the key (or token) was wrong. A wrong key counts as a failure; allowed: false means answer 429.
   */
  check(address: string, keyId: string | null): AuthVerdict {
    const now = this.now();
    const state = this.state(address, now);
    const blockedFor = this.blockedFor(state, now);
    if (keyId !== null) {
      const index = state.known.indexOf(keyId);
      if (blockedFor > 0 && index === -1) return { allowed: false, retryAfterSeconds: blockedFor };
      if (index !== -1) state.known.splice(index, 1);
      state.known.push(keyId);
      if (state.known.length > KNOWN_PER_ADDRESS) state.known.shift();
      return { allowed: true };
    }
    state.failures.push(now);
    if (state.failures.length > this.maxFailures + 1) state.failures.shift();
    const after = this.blockedFor(state, now);
    return after > 0 ? { allowed: false, retryAfterSeconds: after } : { allowed: true };
  }

  /** Seconds the address stays blocked; 0 when it is not (nothing is recorded). */
  retryAfter(address: string): number {
    const now = this.now();
    return this.blockedFor(this.state(address, now), now);
  }

  /** Seconds until the address may fail again; 0 when it is not blocked. */
  private blockedFor(state: AddressState, now: number): number {
    if (state.failures.length <= this.maxFailures) return 0;
    const oldest = state.failures[state.failures.length - 1 - this.maxFailures]!;
    return Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
  }

  private state(address: string, now: number): AddressState {
    let state = this.addresses.get(address);
    if (state) {
      this.addresses.delete(address); // re-inserted below: the map's order is least recently used first
    } else {
      state = { failures: [], known: [] };
      if (this.addresses.size >= MAX_ADDRESSES) this.addresses.delete(this.addresses.keys().next().value!);
    }
    while (state.failures.length > 0 && state.failures[0]! <= now - this.windowMs) state.failures.shift();
    this.addresses.set(address, state);
    return state;
  }
}
