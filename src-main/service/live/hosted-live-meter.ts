/**
 * The spending meter of a live dictation relayed to a hosted model: it counts the audio the client sends (PCM16 at
 * the session's sample rate, set by `session.update` before the first frame) and keeps the session's reservation
 * (jobs/live-reservations.ts) ahead of it — the next chunk is reserved a minute before the audio reaches the end of
 * what is reserved. When the monthly cap cannot give the next chunk, the input is ended with `budget_exceeded`: what
 * was said so far is recognised, recorded and charged, and nothing more is sent to the hosted service.
 */
import type WebSocket from 'ws';
import { DICTATION_DEFAULT_SAMPLE_RATE } from '../../common/dictation-protocol.js';
import type { LiveReservation } from '../../jobs/money/live-reservations.js';
import type { Log } from '../../common/log.js';

/** The next chunk is reserved this long (at most a fifth of a chunk) before the audio reaches the end of the reservation. */
export const EXTEND_AHEAD_SECONDS = 60;
/** How often a running session renews its reservation (it counts while renewed: spending-cap.ts). */
export const RENEW_EVERY_MS = 60_000;

export interface MeterEnd {
  (code: string, message: string): void;
}

export function hostedLiveMeter(reservation: LiveReservation, endInput: () => MeterEnd, log: Log) {
  const logFailure = (what: string) => (error: Error) => log.info(`hosted dictation: the reservation could not be ${what}: ${error.message}`);
  let sampleRate = DICTATION_DEFAULT_SAMPLE_RATE;
  let bytes = 0;
  const ahead = Math.min(EXTEND_AHEAD_SECONDS, reservation.chunkSeconds / 5);
  const renewal = setInterval(() => void reservation.renew().catch(logFailure('renewed')), RENEW_EVERY_MS);
  renewal.unref();
  return {
    /**
     * The relay's `admit`: true to pass the message on. Past the reserved audio less a minute it waits for the next
     * chunk (the relay holds the messages after it meanwhile), so nothing is sent beyond what the cap admitted.
     */
    admit(data: WebSocket.RawData, isBinary: boolean): boolean | Promise<boolean> {
      if (!isBinary) {
        const text = data.toString();
        if (bytes === 0 && text.includes('"sample_rate"')) {
          try {
            const rate = (JSON.parse(text) as { session?: { sample_rate?: unknown } }).session?.sample_rate;
            if (typeof rate === 'number' && rate > 0) sampleRate = rate;
          } catch {
            // the hosted service answers a bad message itself
          }
        }
        return true;
      }
      bytes += (data as Buffer).length;
      if (bytes / 2 / sampleRate < reservation.coveredSeconds - ahead) return true;
      return reservation.extend().then((refused) => {
        if (refused === null) return true;
        endInput()('budget_exceeded', `${refused}; the dictation ends here and what was said so far is kept`);
        return false;
      });
    },
    /** The session is over: the follow-up job holds its own reservation from here. */
    release(): void {
      clearInterval(renewal);
      void reservation.release().catch(logFailure('released'));
    },
  };
}
