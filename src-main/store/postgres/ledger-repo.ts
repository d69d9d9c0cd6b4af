/**
 * The ledger on PostgreSQL, with the semantics of store/ledger-repo.ts. `charge` is `INSERT … ON CONFLICT DO NOTHING`
 * against the unique indexes ledger_once_per_job and ledger_once_per_batch: of two nodes charging the same job or
 * batch for the same thing, the second waits for the first's insert, then inserts nothing (false) — a request is
 * never charged twice, whichever nodes settle it. Ids come from an identity column: they follow the order of inserts,
 * but an insert that charged nothing still used one up (SQLite's would be the next one), so ids can have gaps.
 */
import type { LedgerEntry, LedgerRepo, UsageGroup, UsageSum } from '../ledger-repo.js';
import type { Async } from '../store.js';
import type { Sql } from './sql.js';

const INSERT = `INSERT INTO ledger (account_id, job_id, batch_id, model_id, product, provider, kind, option_name, seconds,
    amount_usd_micro, created_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
  ON CONFLICT DO NOTHING`;
const FOR_ACCOUNT = `SELECT id, account_id, job_id, batch_id, model_id, kind, option_name, seconds, amount_usd_micro, created_at,
    provider, product FROM ledger WHERE account_id = $1 ORDER BY id`;
const TOTAL = 'SELECT SUM(amount_usd_micro) AS total FROM ledger WHERE account_id = $1';
// SQLite's ROUND(x) is (int64)(x ± 0.5) in double arithmetic: halves away from zero. PostgreSQL's round() of a double
// rounds halves to even, and of a numeric rounds the double's 15-digit image (1001.4999999999999 becomes 1002).
const BATCH_USAGE = `SELECT SUM((sign(seconds * 1000) * floor(abs(seconds * 1000) + 0.5))::bigint) AS ms FROM ledger
  WHERE job_id IN (SELECT id FROM jobs WHERE batch_id = $1) AND kind = 'usage' AND option_name = ''`;

const GROUP_COLUMNS: Record<UsageGroup, string> = {
  day: 'substr(created_at, 1, 10)',
  model: 'model_id',
  product: 'product',
};
const USAGE = Object.fromEntries(
  (Object.keys(GROUP_COLUMNS) as UsageGroup[]).map((group) => [
    group,
    `SELECT ${GROUP_COLUMNS[group]} AS key, provider, kind, SUM(amount_usd_micro) AS amount_usd_micro, SUM(seconds) AS seconds,
        COUNT(*) AS "rows"
      FROM ledger WHERE account_id = $1 AND created_at >= $2 AND created_at < $3
      GROUP BY 1, provider, kind ORDER BY 1, provider, kind`,
  ]),
) as Record<UsageGroup, string>;

export function createPgLedgerRepo(sql: Sql): Async<LedgerRepo> {
  return {
    charge: async (e) =>
      (await sql.run(INSERT, [
        e.account_id, e.job_id, e.batch_id, e.model_id, e.product, e.provider, e.kind, e.option_name, e.seconds, e.amount_usd_micro, e.created_at,
      ])) === 1,
    forAccount: (accountId) => sql.all<LedgerEntry>(FOR_ACCOUNT, [accountId]),
    totalMicro: async (accountId) => (await sql.one<{ total: number | null }>(TOTAL, [accountId]))?.total ?? 0,
    batchUsageSeconds: async (batchId) => ((await sql.one<{ ms: number | null }>(BATCH_USAGE, [batchId]))?.ms ?? 0) / 1000,
    usage: (q) => sql.all<UsageSum>(USAGE[q.groupBy], [q.accountId, q.fromIso, q.toIso]),
  };
}
