import type { Migration } from './migration.js';

/**
 * Local batches forwarded as ONE hosted batch: the Idempotency-Key (written before the POST, so a crash between
 * the POST and recording the hosted id is repaired by a replay), the local item positions sent in hosted order,
 * and the hosted batch id once known. Item jobs keep their remote_jobs rows (hosted item job ids).
 */
export const remoteBatches: Migration = {
  version: 5,
  name: 'remote-batches',
  up: `
    CREATE TABLE remote_batches (
      batch_id TEXT PRIMARY KEY REFERENCES batches(id),
      endpoint_url TEXT NOT NULL,
      product TEXT NOT NULL,
      remote_model_id TEXT NOT NULL,
      idempotency_key TEXT NOT NULL,          -- voxdesk-<local batch id>: a resubmission is a replay
      positions_json TEXT NOT NULL,           -- local item positions, in the order of the hosted files[]
      remote_batch_id TEXT,                   -- null until the hosted service has answered the submission
      remote_status TEXT,                     -- open / complete as last seen
      submissions INTEGER NOT NULL DEFAULT 0, -- POSTs attempted (replays and capacity retries included)
      rejected_code TEXT,                     -- the hosted error code when the hosted side refused the batch
      last_error TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
  `,
};
