import type { Migration } from './migration.js';

/**
 * The ledger is the account's billing record and must outlive the job history (retention deletes old jobs and
 * batches). The table is rebuilt without the foreign keys on job_id and batch_id: they stay as the ids the charge was
 * for, possibly of a job deleted since. The account foreign key and the once-per-job/batch indexes are unchanged.
 */
export const ledgerOutlivesJobs: Migration = {
  version: 6,
  name: 'ledger-outlives-jobs',
  up: `
    CREATE TABLE ledger_new (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      job_id TEXT,                            -- the job charged; may name a job deleted by retention
      batch_id TEXT,                          -- the batch charged; may name a batch deleted by retention
      model_id TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('request_fee', 'usage', 'option')),
      option_name TEXT NOT NULL DEFAULT '',
      seconds REAL NOT NULL DEFAULT 0,
      amount_usd_micro INTEGER NOT NULL,
      created_at TEXT NOT NULL
    );
    INSERT INTO ledger_new (id, account_id, job_id, batch_id, model_id, kind, option_name, seconds, amount_usd_micro, created_at)
      SELECT id, account_id, job_id, batch_id, model_id, kind, option_name, seconds, amount_usd_micro, created_at FROM ledger;
    DROP TABLE ledger;
    ALTER TABLE ledger_new RENAME TO ledger;
    CREATE UNIQUE INDEX ledger_once_per_job ON ledger(job_id, kind, option_name) WHERE job_id IS NOT NULL;
    CREATE UNIQUE INDEX ledger_once_per_batch ON ledger(batch_id, kind) WHERE job_id IS NULL AND batch_id IS NOT NULL;
    CREATE INDEX ledger_account ON ledger(account_id, id);
  `,
};
