/**
 * SQL of remote_batches (migration 005): one row per local batch forwarded as one hosted batch, written BEFORE the
 * first POST with its Idempotency-Key and the item positions sent. Also reads (never writes) the job engine's
 * batch tables: which local batch and position a job is, and the items to send.
 */
import type { Db } from '../../store/database.js';
import type { EngineInput } from '../engine-types.js';

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

/** One item of a local batch as the job engine stored it (migration 001's batch_items + jobs, read only). */
export interface LocalBatchItem {
  position: number;
  jobId: string;
  name: string | null;
  status: string;
  cancelRequested: boolean;
  input: EngineInput;
}

export class RemoteBatchesStore {
  private readonly selectOne;
  private readonly insert;
  private readonly countSubmission;
  private readonly setRemote;
  private readonly setStatus;
  private readonly setRejected;
  private readonly setError;
  private readonly setEndpoint;
  private readonly selectItemOf;
  private readonly selectItems;
  private readonly selectParams;
  private readonly selectOrphans;

  constructor(db: Db) {
    this.selectOne = db.prepare<[string], RemoteBatchRow>('SELECT * FROM remote_batches WHERE batch_id = ?');
    this.insert = db.prepare<[string, string, string, string, string, string, string, string]>(
      `INSERT INTO remote_batches (batch_id, endpoint_url, product, remote_model_id, idempotency_key, positions_json, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(batch_id) DO NOTHING`,
    );
    this.countSubmission = db.prepare<[string, string]>('UPDATE remote_batches SET submissions = submissions + 1, updated_at = ? WHERE batch_id = ?');
    this.setRemote = db.prepare<[string, string, string, string]>(
      'UPDATE remote_batches SET remote_batch_id = ?, remote_status = ?, last_error = NULL, updated_at = ? WHERE batch_id = ?',
    );
    this.setStatus = db.prepare<[string, string, string]>('UPDATE remote_batches SET remote_status = ?, updated_at = ? WHERE batch_id = ?');
    this.setRejected = db.prepare<[string, string, string, string]>(
      "UPDATE remote_batches SET remote_status = 'rejected', rejected_code = ?, last_error = ?, updated_at = ? WHERE batch_id = ?",
    );
    this.setError = db.prepare<[string, string, string]>('UPDATE remote_batches SET last_error = ?, updated_at = ? WHERE batch_id = ?');
    this.setEndpoint = db.prepare<[string, string, string]>(
      'UPDATE remote_batches SET endpoint_url = ?, updated_at = ? WHERE batch_id = ? AND remote_batch_id IS NULL AND submissions = 0',
    );
    this.selectItemOf = db.prepare<[string], { batch_id: string; position: number }>(
      'SELECT batch_id, position FROM batch_items WHERE job_id = ?',
    );
    this.selectItems = db.prepare<[string], { position: number; job_id: string; name: string | null; status: string; cancel_requested: number; input_json: string }>(
      `SELECT bi.position, bi.job_id, bi.name, j.status, j.cancel_requested, j.input_json
       FROM batch_items bi JOIN jobs j ON j.id = bi.job_id WHERE bi.batch_id = ? ORDER BY bi.position`,
    );
    this.selectParams = db.prepare<[string], { params_json: string }>('SELECT params_json FROM batches WHERE id = ?');
    this.selectOrphans = db.prepare<[], RemoteBatchRow>(
      `SELECT rb.* FROM remote_batches rb
       WHERE rb.remote_batch_id IS NOT NULL AND (rb.remote_status IS NULL OR rb.remote_status = 'open')
         AND NOT EXISTS (SELECT 1 FROM batch_items bi JOIN jobs j ON j.id = bi.job_id
                         WHERE bi.batch_id = rb.batch_id AND j.status IN ('queued', 'running'))`,
    );
  }

  get(batchId: string): RemoteBatchRow | undefined {
    return this.selectOne.get(batchId);
  }

  /** Inserts the row unless it exists (a restart keeps what the first attempt chose to send); returns it. */
  ensure(row: { batchId: string; endpointUrl: string; product: string; remoteModelId: string; idempotencyKey: string; positions: number[] }): RemoteBatchRow {
    const now = new Date().toISOString();
    this.insert.run(row.batchId, row.endpointUrl, row.product, row.remoteModelId, row.idempotencyKey, JSON.stringify(row.positions), now, now);
    return this.get(row.batchId)!;
  }

  recordSubmission(batchId: string): void {
    this.countSubmission.run(new Date().toISOString(), batchId);
  }

  recordRemoteBatch(batchId: string, remoteBatchId: string, remoteStatus: string): void {
    this.setRemote.run(remoteBatchId, remoteStatus, new Date().toISOString(), batchId);
  }

  recordStatus(batchId: string, remoteStatus: string): void {
    this.setStatus.run(remoteStatus, new Date().toISOString(), batchId);
  }

  recordRejected(batchId: string, code: string, message: string): void {
    this.setRejected.run(code, message, new Date().toISOString(), batchId);
  }

  recordError(batchId: string, message: string): void {
    this.setError.run(message, new Date().toISOString(), batchId);
  }

  /** A batch never posted follows the endpoint the user configured since. */
  retarget(batchId: string, endpointUrl: string): void {
    this.setEndpoint.run(endpointUrl, new Date().toISOString(), batchId);
  }

  /** The local batch and item position of a job; undefined for a job outside any batch. */
  itemOf(jobId: string): { batchId: string; position: number } | undefined {
    const row = this.selectItemOf.get(jobId);
    return row ? { batchId: row.batch_id, position: row.position } : undefined;
  }

  items(batchId: string): LocalBatchItem[] {
    return this.selectItems.all(batchId).map((r) => ({
      position: r.position,
      jobId: r.job_id,
      name: r.name,
      status: r.status,
      cancelRequested: r.cancel_requested === 1,
      input: JSON.parse(r.input_json) as EngineInput,
    }));
  }

  /** Hosted batches still open although every local item has finished (cancelled or expired while queued here). */
  orphans(): RemoteBatchRow[] {
    return this.selectOrphans.all();
  }

  params(batchId: string): Record<string, unknown> {
    const row = this.selectParams.get(batchId);
    return row ? (JSON.parse(row.params_json) as Record<string, unknown>) : {};
  }
}
