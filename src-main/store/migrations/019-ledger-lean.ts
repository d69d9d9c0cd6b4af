/**
 * The ledger takes two rows per succeeded job, written in the commit that records the success, so each page its
 * inserts dirty is one more page in that commit's WAL write (bench/jobs-throughput.ts: the ledger was ~3.3 of the ~7
 * pages a job's settling wrote):
 * - `ledger_account` (account_id, id) goes: every query by account (the list, the total, usage reports) is served by
 *   `ledger_account_time` (account_id, created_at), the list sorting its rows by id.
 * - `ledger_time` (provider, created_at) becomes `ledger_remote_time` (created_at) for hosted charges only: its one
 *   query is the month's hosted spending (spending-repo.ts, `provider = 'remote'`), so an on-device job's charges no
 *   longer touch it.
 * - AUTOINCREMENT goes (the table is rebuilt with the same columns, rows and ids): it updated `sqlite_sequence` on
 *   every insert, only to guarantee that the id of a deleted newest row is never handed out again — ledger rows are
 *   never deleted (the ledger outlives jobs, migration 006), so ids come out the same without it.
 */
import type { Migration } from './migration.js';

export const ledgerLean: Migration = {
  version: 19,
  name: 'ledger-lean',
  up: `
    CREATE TABLE ledger_new (
      id INTEGER PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      job_id TEXT,                            -- the job charged; may name a job deleted by retention
      batch_id TEXT,                          -- the batch charged; may name a batch deleted by retention
      model_id TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('request_fee', 'usage', 'option')),
      option_name TEXT NOT NULL DEFAULT '',
      seconds REAL NOT NULL DEFAULT 0,
      amount_usd_micro INTEGER NOT NULL,
      created_at TEXT NOT NULL,
      provider TEXT NOT NULL DEFAULT 'local' CHECK (provider IN ('local', 'remote')),
      product TEXT
    );
    INSERT INTO ledger_new (id, account_id, job_id, batch_id, model_id, kind, option_name, seconds, amount_usd_micro,
        created_at, provider, product)
      SELECT id, account_id, job_id, batch_id, model_id, kind, option_name, seconds, amount_usd_micro, created_at,
        provider, product FROM ledger;
    DROP TABLE ledger;
    ALTER TABLE ledger_new RENAME TO ledger;
    CREATE UNIQUE INDEX ledger_once_per_job ON ledger(job_id, kind, option_name) WHERE job_id IS NOT NULL;
    CREATE UNIQUE INDEX ledger_once_per_batch ON ledger(batch_id, kind) WHERE job_id IS NULL AND batch_id IS NOT NULL;
    CREATE INDEX ledger_remote_time ON ledger(created_at) WHERE provider = 'remote';
    CREATE INDEX ledger_account_time ON ledger(account_id, created_at);
  `,
};
