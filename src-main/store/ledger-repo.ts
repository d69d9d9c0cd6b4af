/**
 * The ledger: one row per charge, in micro-dollars. Unique indexes (migration 001) make a second charge of the same
 * kind a no-op. Each row says which product it was for and whether a hosted service billed it (migration 010), so
 * usage can be summed by day, model or product long after retention deleted the jobs.
 */
import type { ChargeKind } from '../common/pricing.js';
import type { Db } from './db.js';

export type { ChargeKind } from '../common/pricing.js';

/** `local`: an on-device engine did the work; `remote`: a hosted service did (and bills it). */
export type LedgerProvider = 'local' | 'remote';

export interface LedgerEntry {
  id: number;
  account_id: string;
  job_id: string | null;
  batch_id: string | null;
  model_id: string;
  /** The product route the work came through (a live session's charges: text-to-speech). */
  product: string;
  provider: LedgerProvider;
  kind: ChargeKind;
  option_name: string;
  seconds: number;
  amount_usd_micro: number;
  created_at: string;
}

export type NewCharge = Omit<LedgerEntry, 'id'>;

/** What a usage report groups charges by. */
export type UsageGroup = 'day' | 'model' | 'product';

/** One sum of the ledger: the charges of one kind and provider within one group. */
export interface UsageSum {
  /** The day (`YYYY-MM-DD`, UTC), the model id or the product. */
  key: string;
  provider: LedgerProvider;
  kind: ChargeKind;
  amount_usd_micro: number;
  /** Sum of the rows' seconds (meaningful for usage rows: the billed audio). */
  seconds: number;
  rows: number;
}

export interface UsageQuery {
  accountId: string;
  /** Inclusive lower bound (ISO 8601 UTC, like created_at). */
  fromIso: string;
  /** Exclusive upper bound. */
  toIso: string;
  groupBy: UsageGroup;
}

export interface LedgerRepo {
  /** Inserts the charge unless the same (job, kind, option) or (batch, kind) was charged already; true if inserted. */
  charge(entry: NewCharge): boolean;
  forAccount(accountId: string): LedgerEntry[];
  totalMicro(accountId: string): number;
  /**
   * Seconds of usage already charged to a batch's items, added in whole milliseconds: where the batch's rounded
   * running total stands before its next item is charged (common/pricing.ts chargesFor).
   */
  batchUsageSeconds(batchId: string): number;
  /** The account's charges in [from, to), summed by group, provider and kind, groups in ascending order. */
  usage(query: UsageQuery): UsageSum[];
}

const GROUP_COLUMNS: Record<UsageGroup, string> = {
  day: 'substr(created_at, 1, 10)',
  model: 'model_id',
  product: 'product',
};

export function createLedgerRepo(db: Db): LedgerRepo {
  const insert = db.prepare(`INSERT INTO ledger (account_id, job_id, batch_id, model_id, product, provider, kind, option_name,
      seconds, amount_usd_micro, created_at)
    VALUES (@account_id, @job_id, @batch_id, @model_id, @product, @provider, @kind, @option_name, @seconds,
      @amount_usd_micro, @created_at)
    ON CONFLICT DO NOTHING`);
  const forAccount = db.prepare<[string], LedgerEntry>('SELECT * FROM ledger WHERE account_id = ? ORDER BY id');
  const total = db.prepare<[string], { total: number | null }>(
    'SELECT SUM(amount_usd_micro) AS total FROM ledger WHERE account_id = ?',
  );
  const batchUsage = db.prepare<[string], { ms: number | null }>(
    // Through the batch's jobs (jobs_batch) and each job's usage row (ledger_once_per_job): no scan of the ledger.
    `SELECT SUM(CAST(ROUND(seconds * 1000) AS INTEGER)) AS ms FROM ledger
      WHERE job_id IN (SELECT id FROM jobs WHERE batch_id = ?) AND kind = 'usage' AND option_name = ''`,
  );
  const usage = Object.fromEntries(
    (Object.keys(GROUP_COLUMNS) as UsageGroup[]).map((group) => [
      group,
      db.prepare<Record<string, unknown>, UsageSum>(`SELECT ${GROUP_COLUMNS[group]} AS key, provider, kind,
          SUM(amount_usd_micro) AS amount_usd_micro, SUM(seconds) AS seconds, COUNT(*) AS rows
        FROM ledger WHERE account_id = @accountId AND created_at >= @fromIso AND created_at < @toIso
        GROUP BY 1, provider, kind ORDER BY 1, provider, kind`),
    ]),
  ) as Record<UsageGroup, ReturnType<typeof db.prepare<Record<string, unknown>, UsageSum>>>;
  return {
    charge: (entry) => insert.run(entry).changes === 1,
    forAccount: (accountId) => forAccount.all(accountId),
    totalMicro: (accountId) => total.get(accountId)?.total ?? 0,
    batchUsageSeconds: (batchId) => (batchUsage.get(batchId)?.ms ?? 0) / 1000,
    usage: (q) => usage[q.groupBy].all({ accountId: q.accountId, fromIso: q.fromIso, toIso: q.toIso }),
  };
}

/** Every charge of an account, oldest first (tests and the UI). */
export function ledgerFor(db: Db, accountId: string): LedgerEntry[] {
  return createLedgerRepo(db).forAccount(accountId);
}
