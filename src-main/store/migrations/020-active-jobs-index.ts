/**
 * The queue index (status, created_at, id) of migration 016 held every job, finished ones too, so each success moved
 * an entry into the ever-growing 'succeeded' part of it: one more page in the commit that records the success, and an
 * index that grows with the history. Every query that uses it asks for queued or running jobs (the scheduler's walk,
 * the running list, the overdue sweep, the counts, the budget wait), so it now holds only those: a job leaves it when
 * it finishes. The condition is written `status = 'queued' OR status = 'running'`: SQLite uses a partial index only
 * when the query's WHERE implies the index's, and it proves `status = 'queued'` implies an OR of equalities, not an IN.
 */
import type { Migration } from './migration.js';

export const activeJobsIndex: Migration = {
  version: 20,
  name: 'active-jobs-index',
  up: `
    CREATE INDEX jobs_active ON jobs(status, created_at, id) WHERE status = 'queued' OR status = 'running';
    DROP INDEX jobs_queue_order;
  `,
};
