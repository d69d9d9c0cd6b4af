/**
 * Money a live session on a hosted model may spend, reserved before it is spent (trust review 2, item 7: each
 * session checked for one minute of budget at the start, reserved nothing and could run 4 hours, so many at once
 * spent far past the cap). A session opens with the request fee and its first chunk of minutes reserved; before its
 * audio reaches the end of what is reserved it asks for the next chunk, and when the cap cannot give it the session
 * is ended (its words so far are kept). Each reservation counts in the monthly cap like a running job's; it is
 * released when the session ends, when the local job that follows the hosted one takes over with its own.
 */
import { estimateMicro, FREE_PRICING } from '../../common/pricing.js';
import type { Pricing } from '../../common/api-types.js';
import type { Clock } from '../../store/clock.js';
import type { Store } from '../../store/store.js';
import { LIVE_RESERVATION_STALE_MS, type SpendingCap } from './spending-cap.js';

export interface LiveReservation {
  /** Seconds of audio the reservation covers so far. */
  readonly coveredSeconds: number;
  /** Seconds each extension adds. */
  readonly chunkSeconds: number;
  /** Reserves the next chunk; null when done, else why the cap refuses (the session must end). */
  extend(): Promise<string | null>;
  /** Keeps the reservation counting while the session is alive (every minute). */
  renew(): Promise<void>;
  release(): Promise<void>;
}

export interface LiveReservationRequest {
  sessionId: string;
  accountId: string;
  modelId: string;
  pricing: Pricing | null;
  /** Seconds of audio reserved at a time: the first chunk with the request fee, then one chunk per extension. */
  chunkSeconds: number;
}

export function createLiveReservations(store: Store, cap: SpendingCap, clock: Clock) {
  const now = (): string => clock().toISOString();
  return {
    /** The first chunk reserved, or why the cap refuses it (the session is then refused: 402 budget_exceeded). */
    async open(request: LiveReservationRequest): Promise<LiveReservation | string> {
      const pricing = request.pricing ?? FREE_PRICING;
      const first = estimateMicro(pricing, [request.chunkSeconds]);
      const next = estimateMicro({ ...pricing, request_fee_usd: 0 }, [request.chunkSeconds]);
      const refused = await store.tx(async ({ repos }) => {
        const why = await cap.checkLive(repos, first);
        if (why) return why;
        const at = now();
        await repos.spending.reserveLive({ id: request.sessionId, accountId: request.accountId, modelId: request.modelId, micro: first, at, staleIso: new Date(clock().getTime() - LIVE_RESERVATION_STALE_MS).toISOString() });
        return null;
      });
      if (refused) return refused;
      let covered = request.chunkSeconds;
      let released = false;
      return {
        get coveredSeconds() {
          return covered;
        },
        chunkSeconds: request.chunkSeconds,
        async extend() {
          if (released) return 'the session has ended';
          const why = await store.tx(async ({ repos }) => {
            const capped = await cap.checkLive(repos, next);
            if (capped) return capped;
            await repos.spending.extendLive(request.sessionId, next, now());
            return null;
          });
          if (!why) covered += request.chunkSeconds;
          return why;
        },
        async renew() {
          if (!released) await store.repos.spending.renewLive(request.sessionId, now());
        },
        async release() {
          if (released) return;
          released = true;
          await store.repos.spending.releaseLive(request.sessionId);
        },
      };
    },
  };
}

export type LiveReservations = ReturnType<typeof createLiveReservations>;
