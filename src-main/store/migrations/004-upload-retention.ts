import type { Migration } from './migration.js';

/** Uploaded recordings are deleted some time after their job ends; the job row remembers when. */
export const uploadRetention: Migration = {
  version: 4,
  name: 'upload-retention',
  up: `
    ALTER TABLE jobs ADD COLUMN input_purged_at TEXT;
    CREATE INDEX jobs_inputs_to_purge ON jobs(finished_at) WHERE input_purged_at IS NULL AND finished_at IS NOT NULL;
  `,
};
