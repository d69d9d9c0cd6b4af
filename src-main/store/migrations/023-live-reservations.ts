/**
 * Money held by live sessions on hosted models while they run (trust review 2, item 7). A hosted dictation cannot
 * wait for the budget like a job, and it has no job row until it ends, so what it may spend is reserved here in
 * chunks as it goes — counted by the monthly cap like a job's reservation — and released when the session ends
 * (the local job that follows it then holds its own). A row its session stopped renewing (the process died) no
 * longer counts after a few minutes and is removed.
 */
import type { Migration } from './migration.js';

export const liveReservations: Migration = {
  version: 23,
  name: 'live-reservations',
  up: `
    CREATE TABLE live_reservations (
      id TEXT PRIMARY KEY,                    -- the session's id
      account_id TEXT NOT NULL,
      model_id TEXT NOT NULL,
      reserved_usd_micro INTEGER NOT NULL CHECK (reserved_usd_micro >= 0),
      created_at TEXT NOT NULL,
      renewed_at TEXT NOT NULL                -- the session is alive; older than the stale window: not counted
    );
  `,
};
