/**
 * What the monthly spending cap reads (jobs/spending-cap.ts): hosted charges in the ledger over a period, the
 * estimates held by hosted work that has started but is not charged yet, and the hosted work waiting for the budget
 * (oldest first, so it is released in order). Across every account: one hosted key pays for all of them.
 */
import type { WaitingCode } from '../common/errors.js';
import type { Db } from './db.js';

/** A job or a batch, by the queue order the cap releases them in. */
export interface QueuePlace {
  created_at: string;
  id: string;
}

export interface SpendingRepo {
  /** Hosted charges (ledger provider `remote`) created in [from, to), micro-dollars. */
  hostedChargedMicro(fromIso: string, toIso: string): number;
  /**
   * Estimates held by hosted work not charged yet: jobs that reserved and have not ended, plus each open batch's
   * reservation less what its items and fee have been charged so far (never below 0).
   */
  reservedMicro(): number;
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
  return {
    hostedChargedMicro: (fromIso, toIso) => charged.get(fromIso, toIso)?.total ?? 0,
    reservedMicro: () => (reservedJobs.get()?.total ?? 0) + (reservedBatches.get()?.total ?? 0),
    oldestWaiting: () => oldest.get(),
    countWaiting: () => waiting.get()?.n ?? 0,
  };
}
