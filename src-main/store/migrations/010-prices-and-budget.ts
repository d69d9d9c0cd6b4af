import type { Migration } from './migration.js';

/**
 * Money (issue 17): the price a job or batch was accepted at, its estimate, what hosted work has reserved against the
 * monthly spending cap, and ledger rows that say on their own which product they were for and whether a hosted
 * service billed them (the ledger outlives jobs, so usage by product cannot be joined from jobs later).
 * Rows written before this migration: jobs and batches without a price snapshot are charged at the catalogue's
 * price (as before); ledger rows are marked hosted by their `remote:` model id and given the product of their job or
 * batch where it still exists, else `text-to-speech` (a live session's charges have neither).
 */
export const pricesAndBudget: Migration = {
  version: 10,
  name: 'prices-and-budget',
  up: `
    ALTER TABLE jobs ADD COLUMN price_json TEXT;                -- PriceSnapshot (common/pricing.ts) when accepted
    ALTER TABLE jobs ADD COLUMN estimated_seconds REAL;         -- seconds estimated_usd_micro is for; NULL when unknown
    ALTER TABLE jobs ADD COLUMN reserved_usd_micro INTEGER;     -- hosted: the estimate held against the cap from its start
    ALTER TABLE batches ADD COLUMN price_json TEXT;
    ALTER TABLE batches ADD COLUMN estimated_usd_micro INTEGER; -- the request fee plus every item's estimate
    ALTER TABLE batches ADD COLUMN reserved_usd_micro INTEGER;  -- hosted: the estimate held against the cap as a whole
    ALTER TABLE batches ADD COLUMN reserved_at TEXT;            -- when it was reserved (its pending items' window restarts)
    ALTER TABLE batch_items ADD COLUMN estimated_seconds REAL;  -- a pending item's estimate, given to its job
    ALTER TABLE ledger ADD COLUMN provider TEXT NOT NULL DEFAULT 'local' CHECK (provider IN ('local', 'remote'));
    ALTER TABLE ledger ADD COLUMN product TEXT;

    UPDATE ledger SET provider = 'remote' WHERE model_id LIKE 'remote:%';
    UPDATE ledger SET product = (SELECT product FROM jobs WHERE jobs.id = ledger.job_id) WHERE job_id IS NOT NULL;
    UPDATE ledger SET product = (SELECT product FROM batches WHERE batches.id = ledger.batch_id)
      WHERE product IS NULL AND batch_id IS NOT NULL;
    UPDATE ledger SET product = 'text-to-speech' WHERE product IS NULL;

    CREATE INDEX ledger_time ON ledger(provider, created_at);
    CREATE INDEX ledger_account_time ON ledger(account_id, created_at);
    CREATE INDEX jobs_reserved ON jobs(status) WHERE reserved_usd_micro IS NOT NULL;
    CREATE INDEX jobs_budget_wait ON jobs(created_at, id) WHERE status = 'queued' AND error_code = 'waiting_for_budget';
  `,
};
