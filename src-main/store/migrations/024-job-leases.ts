/**
 * Leases on running jobs (issue 28): the instance that claims a job holds it until `lease_expires_at` and renews
 * that while the job runs; a job whose lease lapsed — its node died, or lost the database for longer than the lease —
 * goes back to the queue and continues after its last committed segment on whichever node claims it next. Rows
 * running before this migration get no lease (they are recovered as before, by their instance being gone).
 */
import type { Migration } from './migration.js';

export const jobLeases: Migration = {
  version: 24,
  name: 'job-leases',
  up: `
    ALTER TABLE jobs ADD COLUMN lease_expires_at TEXT;
  `,
};
