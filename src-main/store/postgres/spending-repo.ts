/**
 * What the monthly spending cap reads, on PostgreSQL, with the semantics of store/spending-repo.ts. Across nodes:
 * `lockForReservation` takes one transaction-scoped advisory lock for the whole cluster, held by the transaction that
 * checks the cap and reserves until it commits, so two nodes cannot both find the last dollar free and both reserve
 * it. Live reservations are keyed by session id (an insert of a taken id fails); `extendLive` adds in one UPDATE
 * (`reserved = reserved + $n`), so concurrent extensions add up; `reserveLive` deletes stale rows and inserts in one
 * transaction; `renewLive` and `releaseLive` touch one session's row.
 */
import type { WaitingCode } from '../../common/errors.js';
import type { QueuePlace, SpendingRepo } from '../spending-repo.js';
import type { Async } from '../store.js';
import { LOCK_SPACE } from './shared.js';
import type { Sql } from './sql.js';

const BUDGET_WAIT: WaitingCode = 'waiting_for_budget';

const LOCK = `SELECT pg_advisory_xact_lock(${LOCK_SPACE.reservation}, 0)`;
const CHARGED = "SELECT SUM(amount_usd_micro) AS total FROM ledger WHERE provider = 'remote' AND created_at >= $1 AND created_at < $2";
const RESERVED = `SELECT
    (SELECT COALESCE(SUM(reserved_usd_micro), 0) FROM jobs WHERE reserved_usd_micro IS NOT NULL AND status IN ('queued', 'running'))
  + (SELECT COALESCE(SUM(GREATEST(0, b.reserved_usd_micro
        - COALESCE((SELECT SUM(l.amount_usd_micro) FROM ledger l WHERE l.batch_id = b.id), 0))), 0)
      FROM batches b WHERE b.status = 'open' AND b.reserved_usd_micro IS NOT NULL)
  + (SELECT COALESCE(SUM(reserved_usd_micro), 0) FROM live_reservations WHERE renewed_at >= $1) AS total`;
const OLDEST = `SELECT created_at, id FROM (
    SELECT created_at, id FROM jobs WHERE status = 'queued' AND error_code = '${BUDGET_WAIT}'
    UNION ALL
    SELECT created_at, id FROM batches WHERE status = 'open' AND pending_code = '${BUDGET_WAIT}'
  ) w ORDER BY created_at, id LIMIT 1`;
const WAITING = `SELECT
    (SELECT COUNT(*) FROM jobs WHERE status = 'queued' AND error_code = '${BUDGET_WAIT}')
  + (SELECT COUNT(*) FROM batch_items bi JOIN batches b ON b.id = bi.batch_id
      WHERE bi.job_id IS NULL AND b.status = 'open' AND b.pending_code = '${BUDGET_WAIT}') AS n`;
const STALE_LIVE = 'DELETE FROM live_reservations WHERE renewed_at < $1';
const INSERT_LIVE = 'INSERT INTO live_reservations (id, account_id, model_id, reserved_usd_micro, created_at, renewed_at) VALUES ($1, $2, $3, $4, $5, $5)';
const EXTEND_LIVE = 'UPDATE live_reservations SET reserved_usd_micro = reserved_usd_micro + $1, renewed_at = $2 WHERE id = $3';
const RENEW_LIVE = 'UPDATE live_reservations SET renewed_at = $1 WHERE id = $2';
const RELEASE_LIVE = 'DELETE FROM live_reservations WHERE id = $1';

export function createPgSpendingRepo(sql: Sql): Async<SpendingRepo> {
  return {
    async lockForReservation() {
      // Outside a transaction the lock would end with its statement: it only means something inside one.
      if (sql.inTransaction) await sql.one(LOCK);
    },
    hostedChargedMicro: async (fromIso, toIso) => (await sql.one<{ total: number | null }>(CHARGED, [fromIso, toIso]))?.total ?? 0,
    reservedMicro: async (liveSinceIso) => (await sql.one<{ total: number }>(RESERVED, [liveSinceIso]))?.total ?? 0,
    reserveLive: (row) =>
      sql.atomic(async (t) => {
        await t.run(STALE_LIVE, [row.staleIso]);
        await t.run(INSERT_LIVE, [row.id, row.accountId, row.modelId, row.micro, row.at]);
      }),
    extendLive: async (id, micro, at) => void (await sql.run(EXTEND_LIVE, [micro, at, id])),
    renewLive: async (id, at) => void (await sql.run(RENEW_LIVE, [at, id])),
    releaseLive: async (id) => void (await sql.run(RELEASE_LIVE, [id])),
    oldestWaiting: (): Promise<QueuePlace | undefined> => sql.one<QueuePlace>(OLDEST),
    countWaiting: async () => (await sql.one<{ n: number }>(WAITING))?.n ?? 0,
  };
}
