/**
 * remote_batches on PostgreSQL, with the semantics of store/remote-batches-repo.ts. `ensure` is `INSERT … ON CONFLICT
 * (batch_id) DO NOTHING` and then a read, so every node sends what the first one chose; `recordSubmission` counts in
 * one UPDATE; `retarget` changes only a batch never posted (`remote_batch_id IS NULL AND submissions = 0`); the
 * other `record…` methods update one row (the later commit's value stays). The rest only reads.
 */
import { isoAt } from '../clock.js';
import type { LocalBatchItemRow, RemoteBatchRow, RemoteBatchesRepo } from '../remote-batches-repo.js';
import type { Async } from '../store.js';
import type { PgShared } from './shared.js';
import type { Sql } from './sql.js';

const COLUMNS = 'batch_id, endpoint_url, product, remote_model_id, idempotency_key, positions_json, remote_batch_id, remote_status, submissions, rejected_code, last_error, created_at, updated_at';
const SELECT_ONE = `SELECT ${COLUMNS} FROM remote_batches WHERE batch_id = $1`;
const INSERT = `INSERT INTO remote_batches (batch_id, endpoint_url, product, remote_model_id, idempotency_key, positions_json, created_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $7) ON CONFLICT (batch_id) DO NOTHING`;
const COUNT_SUBMISSION = 'UPDATE remote_batches SET submissions = submissions + 1, updated_at = $1 WHERE batch_id = $2';
const SET_REMOTE = 'UPDATE remote_batches SET remote_batch_id = $1, remote_status = $2, last_error = NULL, updated_at = $3 WHERE batch_id = $4';
const SET_STATUS = 'UPDATE remote_batches SET remote_status = $1, updated_at = $2 WHERE batch_id = $3';
const SET_REJECTED = "UPDATE remote_batches SET remote_status = 'rejected', rejected_code = $1, last_error = $2, updated_at = $3 WHERE batch_id = $4";
const SET_ERROR = 'UPDATE remote_batches SET last_error = $1, updated_at = $2 WHERE batch_id = $3';
const SET_ENDPOINT = 'UPDATE remote_batches SET endpoint_url = $1, updated_at = $2 WHERE batch_id = $3 AND remote_batch_id IS NULL AND submissions = 0';
const ITEM_OF = 'SELECT batch_id, position FROM batch_items WHERE job_id = $1';
const ITEMS = `SELECT bi.position, bi.job_id, bi.name, COALESCE(j.status, 'pending') AS status,
    COALESCE(j.cancel_requested, 0) AS cancel_requested, COALESCE(j.input_json, bi.pending_input_json) AS input_json
  FROM batch_items bi LEFT JOIN jobs j ON j.id = bi.job_id WHERE bi.batch_id = $1 ORDER BY bi.position`;
const PARAMS = 'SELECT params_json FROM batches WHERE id = $1';
const ORPHANS = `SELECT ${COLUMNS.split(', ').map((c) => `rb.${c}`).join(', ')} FROM remote_batches rb
  WHERE rb.remote_batch_id IS NOT NULL AND (rb.remote_status IS NULL OR rb.remote_status = 'open')
    AND NOT EXISTS (SELECT 1 FROM batch_items bi LEFT JOIN jobs j ON j.id = bi.job_id
                    WHERE bi.batch_id = rb.batch_id AND (bi.job_id IS NULL OR j.status IN ('queued', 'running')))`;

export function createPgRemoteBatchesRepo(sql: Sql, shared: PgShared): Async<RemoteBatchesRepo> {
  const now = (): string => isoAt(shared.clock);
  const get = (batchId: string): Promise<RemoteBatchRow | undefined> => sql.one<RemoteBatchRow>(SELECT_ONE, [batchId]);
  return {
    get,
    async ensure(row) {
      await sql.run(INSERT, [row.batchId, row.endpointUrl, row.product, row.remoteModelId, row.idempotencyKey, JSON.stringify(row.positions), now()]);
      return (await get(row.batchId))!;
    },
    recordSubmission: async (batchId) => void (await sql.run(COUNT_SUBMISSION, [now(), batchId])),
    recordRemoteBatch: async (batchId, remoteBatchId, remoteStatus) => void (await sql.run(SET_REMOTE, [remoteBatchId, remoteStatus, now(), batchId])),
    recordStatus: async (batchId, remoteStatus) => void (await sql.run(SET_STATUS, [remoteStatus, now(), batchId])),
    recordRejected: async (batchId, code, message) => void (await sql.run(SET_REJECTED, [code, message, now(), batchId])),
    recordError: async (batchId, message) => void (await sql.run(SET_ERROR, [message, now(), batchId])),
    retarget: async (batchId, endpointUrl) => void (await sql.run(SET_ENDPOINT, [endpointUrl, now(), batchId])),
    async itemOf(jobId) {
      const row = await sql.one<{ batch_id: string; position: number }>(ITEM_OF, [jobId]);
      return row ? { batchId: row.batch_id, position: row.position } : undefined;
    },
    items: (batchId) => sql.all<LocalBatchItemRow>(ITEMS, [batchId]),
    orphans: () => sql.all<RemoteBatchRow>(ORPHANS),
    async params(batchId) {
      const row = await sql.one<{ params_json: string }>(PARAMS, [batchId]);
      return row ? (JSON.parse(row.params_json) as Record<string, unknown>) : {};
    },
  };
}
