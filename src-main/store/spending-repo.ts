/**
 * What the monthly spending cap reads (jobs/spending-cap.ts): hosted charges in the ledger over a period, the
 * estimates held by hosted work that has started but is not charged yet (jobs, open batches, and live sessions on
 * hosted models — migration 023), and the hosted work waiting for the budget (oldest first, so it is released in
 * order). Across every account: one hosted key pays for all of them.
 */
import type { WaitingCode } from '../common/errors.js';
import type { Db } from './db.js';

/** A job or a batch, by the queue order the cap releases them in. */
export interface QueuePlace {
  created_at: string;
  id: string;
}

export interface SpendingRepo {
  /**
   * Inside a write transaction, before a check of the cap that is followed by a reservation: makes check-then-reserve
   * one step for every writer. SQLite: nothing to do (an IMMEDIATE transaction has the database to itself);
   * PostgreSQL: a transaction-scoped advisory lock, so two nodes cannot both reserve the last dollar.
   */
  lockForReservation(): void;
  /** Hosted charges (ledger provider `remote`) created in [from, to), micro-dollars. */
  hostedChargedMicro(fromIso: string, toIso: string): number;
  /**
   * Estimates held by hosted work not charged yet: jobs that reserved and have not ended, plus each open batch's
   * reservation less what its items and fee have been charged so far (never below 0), plus live sessions'
   * reservations renewed at or after `liveSinceIso` (older ones belong to sessions that died).
   */
  reservedMicro(liveSinceIso: string): number;
  /** A live session's first reservation; the rows of sessions that died (not renewed since `staleIso`) go. */
  reserveLive(row: { id: string; accountId: string; modelId: string; micro: number; at: string; staleIso: string }): void;
  /** Adds to a live session's reservation (and renews it). */
  extendLive(id: string, micro: number, at: string): void;
  /** The session is still running: its reservation keeps counting. */
  renewLive(id: string, at: string): void;
  releaseLive(id: string): void;
  /** The oldest job or batch waiting with `waiting_for_budget`, or undefined. */
  oldestWaiting(): QueuePlace | undefined;
  /** Queued jobs plus pending batch items waiting with `waiting_for_budget`. */
  countWaiting(): number;
}

const BUDGET_WAIT: WaitingCode = 'waiting_for_budget';

export function createSpendingRepo(db: Db): SpendingRepo {
  const charged = db.prepare<[string, string], { total: number | null }>(
    "SELECT SUM(amount_usd_micro) AS total FROM ledger WHERE provider = 'remote' AND created_at >= ? AND created_at < ?",
  );
  const reservedJobs = db.prepare<[], { total: number | null }>(
    "SELECT SUM(reserved_usd_micro) AS total FROM jobs WHERE reserved_usd_micro IS NOT NULL AND status IN ('queued', 'running')",
  );
  const reservedBatches = db.prepare<[], { total: number | null }>(`SELECT SUM(MAX(0, b.reserved_usd_micro
      - IFNULL((SELECT SUM(l.amount_usd_micro) FROM ledger l WHERE l.batch_id = b.id), 0))) AS total
    FROM batches b WHERE b.status = 'open' AND b.reserved_usd_micro IS NOT NULL`);
  const oldest = db.prepare<[], QueuePlace>(`SELECT created_at, id FROM (
      SELECT created_at, id FROM jobs WHERE status = 'queued' AND error_code = '${BUDGET_WAIT}'
      UNION ALL
      SELECT created_at, id FROM batches WHERE status = 'open' AND pending_code = '${BUDGET_WAIT}'
    ) ORDER BY created_at, id LIMIT 1`);
  const waiting = db.prepare<[], { n: number }>(`SELECT
      (SELECT COUNT(*) FROM jobs WHERE status = 'queued' AND error_code = '${BUDGET_WAIT}')
    + (SELECT COUNT(*) FROM batch_items bi JOIN batches b ON b.id = bi.batch_id
        WHERE bi.job_id IS NULL AND b.status = 'open' AND b.pending_code = '${BUDGET_WAIT}') AS n`);
  const staleLive = db.prepare<[string]>('DELETE FROM live_reservations WHERE renewed_at < ?');
  const reservedLive = db.prepare<[string], { total: number | null }>('SELECT SUM(reserved_usd_micro) AS total FROM live_reservations WHERE renewed_at >= ?');
  const insertLive = db.prepare(
    'INSERT INTO live_reservations (id, account_id, model_id, reserved_usd_micro, created_at, renewed_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const extendLive = db.prepare('UPDATE live_reservations SET reserved_usd_micro = reserved_usd_micro + ?, renewed_at = ? WHERE id = ?');
  const renewLive = db.prepare('UPDATE live_reservations SET renewed_at = ? WHERE id = ?');
  const releaseLive = db.prepare('DELETE FROM live_reservations WHERE id = ?');
  return {
    lockForReservation: () => {},
    hostedChargedMicro: (fromIso, toIso) => charged.get(fromIso, toIso)?.total ?? 0,
    reservedMicro: (liveSinceIso) => (reservedJobs.get()?.total ?? 0) + (reservedBatches.get()?.total ?? 0) + (reservedLive.get(liveSinceIso)?.total ?? 0),
    reserveLive: (row) => {
      staleLive.run(row.staleIso);
      insertLive.run(row.id, row.accountId, row.modelId, row.micro, row.at, row.at);
    },
    extendLive: (id, micro, at) => void extendLive.run(micro, at, id),
    renewLive: (id, at) => void renewLive.run(at, id),
    releaseLive: (id) => void releaseLive.run(id),
    oldestWaiting: () => oldest.get(),
    countWaiting: () => waiting.get()?.n ?? 0,
  };
}
