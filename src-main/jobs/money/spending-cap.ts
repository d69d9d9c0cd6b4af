/**
 * The monthly spending cap on hosted work (issue 17): before a job or a held batch is forwarded, its quote (the
 * estimate recorded when it was accepted) is checked against the month's hosted spending — hosted charges already in
 * the ledger plus the quotes reserved by hosted work under way. Work that would pass the cap stays queued (or
 * pending) with `waiting_for_budget`, never dropped or failed; it is released in the order it was sent when the cap
 * is raised or a new month begins (the scheduler asks again on every pass).
 *
 * The reservation closes the race of several hosted jobs starting at once: the check and the reservation (the
 * job's `reserved_usd_micro`, a batch's as a whole) are made in the scheduler's immediate transaction, so the next
 * check — in the same pass, or by another instance on the same database — already counts it. A job's reservation
 * counts until the job ends (its charges then are in the ledger); a batch's counts, less what it has been charged
 * so far, until the batch completes. Months are calendar months in UTC.
 */
import type { BudgetSettings } from '../../common/api-types.js';
import { fromMicro } from '../../common/pricing.js';
import type { Clock } from '../../store/clock.js';
import type { QueuePlace } from '../../store/spending-repo.js';
import type { StoreRepos } from '../../store/store.js';
import { readMonthlyCapMicro } from './budget-policy.js';

export interface SpendingCap {
  /**
   * With a write transaction's repositories: null when hosted work at `place` quoted `quoteMicro` may start now (the
   * caller then reserves the quote in the same transaction), else the reason it waits, in words.
   */
  check(repos: CapRepos, place: QueuePlace, quoteMicro: number): Promise<string | null>;
  /**
   * With a write transaction's repositories: null when `micro` more may be reserved for live hosted work now (it
   * cannot wait in the queue, so only the amount counts), else why not, in words.
   */
  checkLive(repos: CapRepos, micro: number): Promise<string | null>;
  /** What GET /v1/settings/budget answers. */
  status(repos: CapRepos): Promise<BudgetSettings>;
}

type CapRepos = Pick<StoreRepos, 'settings' | 'spending'>;

/**
 * A live session renews its reservation every minute it runs; one not renewed for this long belongs to a session
 * that died with its process, and no longer counts.
 */
export const LIVE_RESERVATION_STALE_MS = 3 * 60_000;

/** The UTC calendar month `at` falls in: `YYYY-MM`, its first instant and the next month's. */
export function utcMonth(at: Date): { month: string; start: string; end: string } {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const end = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return { month: start.toISOString().slice(0, 7), start: start.toISOString(), end: end.toISOString() };
}

/** `$0.12`, or every micro-dollar digit that matters (`$0.000125`). */
export function usdText(micro: number): string {
  const usd = fromMicro(micro);
  return micro % 10_000 === 0 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(6).replace(/0+$/, '')}`;
}

function before(a: QueuePlace, b: QueuePlace): boolean {
  return a.created_at < b.created_at || (a.created_at === b.created_at && a.id < b.id);
}

export function createSpendingCap(clock: Clock): SpendingCap {
  async function committedMicro(repos: CapRepos, period: { start: string; end: string }): Promise<{ spent: number; reserved: number }> {
    const liveSince = new Date(clock().getTime() - LIVE_RESERVATION_STALE_MS).toISOString();
    return { spent: await repos.spending.hostedChargedMicro(period.start, period.end), reserved: await repos.spending.reservedMicro(liveSince) };
  }

  async function checkLive(repos: CapRepos, micro: number): Promise<string | null> {
    const cap = await readMonthlyCapMicro(repos.settings);
    if (cap === null || micro <= 0) return null;
    await repos.spending.lockForReservation();
    const period = utcMonth(clock());
    const { spent, reserved } = await committedMicro(repos, period);
    if (spent + reserved + micro <= cap) return null;
    const left = Math.max(0, cap - spent - reserved);
    return `the monthly cap for hosted work leaves ${usdText(left)} (${usdText(spent + reserved)} of ${usdText(cap)} spent or reserved in ${period.month}), less than the next ${usdText(micro)} of live hosted work; raise the cap on the Usage page or use an on-device model`;
  }

  async function check(repos: CapRepos, place: QueuePlace, quoteMicro: number): Promise<string | null> {
    const cap = await readMonthlyCapMicro(repos.settings);
    if (cap === null) return null;
    await repos.spending.lockForReservation();
    const oldest = await repos.spending.oldestWaiting();
    if (oldest && oldest.id !== place.id && before(oldest, place)) {
      return 'Waiting behind earlier hosted work that waits for the monthly budget: hosted work starts in the order it was sent.';
    }
    if (quoteMicro <= 0) return null;
    const period = utcMonth(clock());
    const { spent, reserved } = await committedMicro(repos, period);
    if (spent + reserved + quoteMicro <= cap) return null;
    const left = Math.max(0, cap - spent - reserved);
    return `Its quote of ${usdText(quoteMicro)} would pass the monthly cap for hosted work: ${usdText(spent + reserved)} of ${usdText(cap)} is spent or reserved in ${period.month} (${usdText(left)} left). It starts when the cap is raised, or on ${period.end.slice(0, 10)} (UTC).`;
  }

  async function status(repos: CapRepos): Promise<BudgetSettings> {
    const cap = await readMonthlyCapMicro(repos.settings);
    const period = utcMonth(clock());
    const { spent, reserved } = await committedMicro(repos, period);
    return {
      monthly_usd: cap === null ? null : fromMicro(cap),
      currency: 'USD',
      month: period.month,
      period_start: period.start,
      resets_at: period.end,
      spent_usd: fromMicro(spent),
      reserved_usd: fromMicro(reserved),
      remaining_usd: cap === null ? null : fromMicro(Math.max(0, cap - spent - reserved)),
      waiting: await repos.spending.countWaiting(),
    };
  }

  return { check, checkLive, status };
}
