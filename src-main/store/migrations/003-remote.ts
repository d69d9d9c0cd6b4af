import type { Migration } from './migration.js';

/**
 * Hosted-service forwarding: the cached hosted catalogue (so remote models are listed offline) and, per local job
 * sent to the hosted service, the Idempotency-Key used and the hosted job id once known.
 */
export const remote: Migration = {
  version: 3,
  name: 'remote',
  up: `
    CREATE TABLE remote_catalogue (
      endpoint_url TEXT NOT NULL,             -- the hosted service the row came from; rows of another URL are stale
      model_id TEXT NOT NULL,                 -- the hosted id (the local catalogue shows remote:<id>)
      record_json TEXT NOT NULL,              -- the hosted catalogue record as received
      fetched_at TEXT NOT NULL,
      PRIMARY KEY (endpoint_url, model_id)
    );

    CREATE TABLE remote_jobs (
      job_id TEXT PRIMARY KEY REFERENCES jobs(id),
      endpoint_url TEXT NOT NULL,
      product TEXT NOT NULL,
      remote_model_id TEXT NOT NULL,
      idempotency_key TEXT NOT NULL,          -- derived from job_id: a resubmission after a crash is a replay
      remote_job_id TEXT,                     -- null until the hosted service has answered the submission
      remote_status TEXT,
      submissions INTEGER NOT NULL DEFAULT 0, -- POSTs attempted (replays included)
      last_error TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX remote_jobs_remote_id ON remote_jobs(remote_job_id);
  `,
};
