import type { Migration } from './migration.js';

/**
 * Batch items can be `pending` (spec: accepted, not yet queued): a batch on a hosted model holds its items until the
 * hosted service has accepted the batch. A pending item has no job yet (batch_items.job_id NULL) and keeps what its
 * job will be made of: its input here, the batch's language on the batch. Why the items wait (the hosted account's
 * open batches, the network) is kept on the batch, shown as the pending items' error_code and error_message.
 */
export const pendingBatchItems: Migration = {
  version: 9,
  name: 'pending-batch-items',
  up: `
    ALTER TABLE batch_items ADD COLUMN pending_input_json TEXT;  -- the input of a pending item; NULL once its job exists
    ALTER TABLE batches ADD COLUMN language TEXT;                -- the language sent with the batch (every item's job)
    ALTER TABLE batches ADD COLUMN pending_code TEXT;            -- why pending items wait (waiting_for_capacity, …)
    ALTER TABLE batches ADD COLUMN pending_message TEXT;
    CREATE INDEX batch_items_pending ON batch_items(batch_id) WHERE job_id IS NULL;
  `,
};
