/**
 * remote_batches (migration 005): one row per local batch forwarded as one hosted batch, written BEFORE the first
 * POST with its Idempotency-Key and the item positions sent. Also reads (never writes) the job engine's batch
 * tables: which local batch and position a job is, and the items to send.
 */
import { isoAt, systemClock, type Clock } from './clock.js';
import type { Db } from './db.js';

export interface RemoteBatchRow {
  batch_id: string;
  endpoint_url: string;
  product: string;
  remote_model_id: string;
  idempotency_key: string;
  positions_json: string;
  remote_batch_id: string | null;
  remote_status: string | null;
  submissions: number;
  rejected_code: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * One item of a local batch as the job engine stored it (batch_items + jobs, read only). A pending item (no job yet,
 * migration 009) reads as status 'pending' with the input it keeps until its job is created.
 */
export interface LocalBatchItemRow {
  position: number;
  job_id: string | null;
  name: string | null;
  status: string;
  cancel_requested: number;
  input_json: string;
}

export interface RemoteBatchesRepo {
  get(batchId: string): RemoteBatchRow | undefined;
  /** Inserts the row unless it exists (a restart keeps what the first attempt chose to send); returns it. */
  ensure(row: { batchId: string; endpointUrl: string; product: string; remoteModelId: string; idempotencyKey: string; positions: number[] }): RemoteBatchRow;
  recordSubmission(batchId: string): void;
  recordRemoteBatch(batchId: string, remoteBatchId: string, remoteStatus: string): void;
  recordStatus(batchId: string, remoteStatus: string): void;
  recordRejected(batchId: string, code: string, message: string): void;
  recordError(batchId: string, message: string): void;
  /** A batch never posted follows the endpoint the user configured since. */
  retarget(batchId: string, endpointUrl: string): void;
  /** The local batch and item position of a job; undefined for a job outside any batch. */
  itemOf(jobId: string): { batchId: string; position: number } | undefined;
  /** The local batch's items in position order, with their jobs' status and input (pending items included). */
  items(batchId: string): LocalBatchItemRow[];
  /** Hosted batches still open although every local item has finished (cancelled or expired while queued here). */
  orphans(): RemoteBatchRow[];
  /** The local batch's params ({} for an unknown batch). */
  params(batchId: string): Record<string, unknown>;
}

export function createRemoteBatchesRepo(db: Db, clock: Clock = systemClock): RemoteBatchesRepo {
  const selectOne = db.prepare<[string], RemoteBatchRow>('SELECT * FROM remote_batches WHERE batch_id = ?');
  const insert = db.prepare<[string, string, string, string, string, string, string, string]>(
    `INSERT INTO remote_batches (batch_id, endpoint_url, product, remote_model_id, idempotency_key, positions_json, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(batch_id) DO NOTHING`,
  );
  const countSubmission = db.prepare<[string, string]>('UPDATE remote_batches SET submissions = submissions + 1, updated_at = ? WHERE batch_id = ?');
  const setRemote = db.prepare<[string, string, string, string]>(
    'UPDATE remote_batches SET remote_batch_id = ?, remote_status = ?, last_error = NULL, updated_at = ? WHERE batch_id = ?',
  );
  const setStatus = db.prepare<[string, string, string]>('UPDATE remote_batches SET remote_status = ?, updated_at = ? WHERE batch_id = ?');
  const setRejected = db.prepare<[string, string, string, string]>(
    "UPDATE remote_batches SET remote_status = 'rejected', rejected_code = ?, last_error = ?, updated_at = ? WHERE batch_id = ?",
  );
  const setError = db.prepare<[string, string, string]>('UPDATE remote_batches SET last_error = ?, updated_at = ? WHERE batch_id = ?');
  const setEndpoint = db.prepare<[string, string, string]>(
    'UPDATE remote_batches SET endpoint_url = ?, updated_at = ? WHERE batch_id = ? AND remote_batch_id IS NULL AND submissions = 0',
  );
  const selectItemOf = db.prepare<[string], { batch_id: string; position: number }>(
    'SELECT batch_id, position FROM batch_items WHERE job_id = ?',
  );
  const selectItems = db.prepare<[string], LocalBatchItemRow>(
    `SELECT bi.position, bi.job_id, bi.name, COALESCE(j.status, 'pending') AS status,
            COALESCE(j.cancel_requested, 0) AS cancel_requested, COALESCE(j.input_json, bi.pending_input_json) AS input_json
     FROM batch_items bi LEFT JOIN jobs j ON j.id = bi.job_id WHERE bi.batch_id = ? ORDER BY bi.position`,
  );
  const selectParams = db.prepare<[string], { params_json: string }>('SELECT params_json FROM batches WHERE id = ?');
  const selectOrphans = db.prepare<[], RemoteBatchRow>(
    `SELECT rb.* FROM remote_batches rb
     WHERE rb.remote_batch_id IS NOT NULL AND (rb.remote_status IS NULL OR rb.remote_status = 'open')
       AND NOT EXISTS (SELECT 1 FROM batch_items bi LEFT JOIN jobs j ON j.id = bi.job_id
                       WHERE bi.batch_id = rb.batch_id AND (bi.job_id IS NULL OR j.status IN ('queued', 'running')))`,
  );
  const get = (batchId: string): RemoteBatchRow | undefined => selectOne.get(batchId);
  return {
    get,
    ensure: (row) => {
      const now = isoAt(clock);
      insert.run(row.batchId, row.endpointUrl, row.product, row.remoteModelId, row.idempotencyKey, JSON.stringify(row.positions), now, now);
      return get(row.batchId)!;
    },
    recordSubmission: (batchId) => void countSubmission.run(isoAt(clock), batchId),
    recordRemoteBatch: (batchId, remoteBatchId, remoteStatus) => void setRemote.run(remoteBatchId, remoteStatus, isoAt(clock), batchId),
    recordStatus: (batchId, remoteStatus) => void setStatus.run(remoteStatus, isoAt(clock), batchId),
    recordRejected: (batchId, code, message) => void setRejected.run(code, message, isoAt(clock), batchId),
    recordError: (batchId, message) => void setError.run(message, isoAt(clock), batchId),
    retarget: (batchId, endpointUrl) => void setEndpoint.run(endpointUrl, isoAt(clock), batchId),
    itemOf: (jobId) => {
      const row = selectItemOf.get(jobId);
      return row ? { batchId: row.batch_id, position: row.position } : undefined;
    },
    items: (batchId) => selectItems.all(batchId),
    orphans: () => selectOrphans.all(),
    params: (batchId) => {
      const row = selectParams.get(batchId);
      return row ? (JSON.parse(row.params_json) as Record<string, unknown>) : {};
    },
  };
}
