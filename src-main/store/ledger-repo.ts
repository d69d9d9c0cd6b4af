/** The ledger: one row per charge. Unique indexes (migration 001) make a second charge of the same kind a no-op. */
import type { Db } from './db.js';

export type ChargeKind = 'request_fee' | 'usage' | 'option';

export interface LedgerEntry {
  id: number;
  account_id: string;
  job_id: string | null;
  batch_id: string | null;
  model_id: string;
  kind: ChargeKind;
  option_name: string;
  seconds: number;
  amount_usd_micro: number;
  created_at: string;
}

export type NewCharge = Omit<LedgerEntry, 'id'>;

export interface LedgerRepo {
  /** Inserts the charge unless the same (job, kind, option) or (batch, kind) was charged already; true if inserted. */
  charge(entry: NewCharge): boolean;
  forAccount(accountId: string): LedgerEntry[];
  totalMicro(accountId: string): number;
}

export function createLedgerRepo(db: Db): LedgerRepo {
  const insert = db.prepare(`INSERT INTO ledger (account_id, job_id, batch_id, model_id, kind, option_name, seconds,
      amount_usd_micro, created_at)
    VALUES (@account_id, @job_id, @batch_id, @model_id, @kind, @option_name, @seconds, @amount_usd_micro, @created_at)
    ON CONFLICT DO NOTHING`);
  const forAccount = db.prepare<[string], LedgerEntry>('SELECT * FROM ledger WHERE account_id = ? ORDER BY id');
  const total = db.prepare<[string], { total: number | null }>(
    'SELECT SUM(amount_usd_micro) AS total FROM ledger WHERE account_id = ?',
  );
  return {
    charge: (entry) => insert.run(entry).changes === 1,
    forAccount: (accountId) => forAccount.all(accountId),
    totalMicro: (accountId) => total.get(accountId)?.total ?? 0,
  };
}

/** Every charge of an account, oldest first (tests and the UI). */
export function ledgerFor(db: Db, accountId: string): LedgerEntry[] {
  return createLedgerRepo(db).forAccount(accountId);
}
