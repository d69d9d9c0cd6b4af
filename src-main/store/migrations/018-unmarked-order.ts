import type { Migration } from './migration.js';

/**
 * The scheduler reads the unmarked queued jobs (new or requeued, no waiting code yet) on every pass in queue order,
 * (created_at, id). The partial index held created_at only, so every read sorted by id in a temporary b-tree, even
 * to find nothing (about 25 µs of the ~50 µs a pass spent on it, bench/jobs-throughput.ts); with the id in the
 * index the read is a walk of its first rows.
 */
export const unmarkedOrder: Migration = {
  version: 18,
  name: 'unmarked-order',
  up: `
    DROP INDEX jobs_unmarked;
    CREATE INDEX jobs_unmarked ON jobs(created_at, id) WHERE status = 'queued' AND error_code IS NULL;
  `,
};
