/**
 * SQL of remote_jobs (migration 003): one row per local job forwarded to the hosted service. The row (with its
 * Idempotency-Key) is written BEFORE the first POST, so a crash between the POST and recording the hosted id is
 * repaired by posting again with the same key: the hosted service answers with the job it already has.
 */
import type { Db } from '../../store/database.js';

export interface RemoteJobRow {
  job_id: string;
  endpoint_url: string;
  product: string;
  remote_model_id: string;
  idempotency_key: string;
  remote_job_id: string | null;
  remote_status: string | null;
  submissions: number;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export class RemoteJobsStore {
  private readonly selectOne;
  private readonly insert;
  private readonly countSubmission;
  private readonly setRemote;
  private readonly setStatus;
  private readonly setError;
  private readonly setEndpoint;
  private readonly selectLocal;

  constructor(db: Db) {
    this.selectOne = db.prepare<[string], RemoteJobRow>('SELECT * FROM remote_jobs WHERE job_id = ?');
    this.insert = db.prepare<[string, string, string, string, string, string, string]>(
      `INSERT INTO remote_jobs (job_id, endpoint_url, product, remote_model_id, idempotency_key, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(job_id) DO NOTHING`,
    );
    this.countSubmission = db.prepare<[string, string]>(
      'UPDATE remote_jobs SET submissions = submissions + 1, updated_at = ? WHERE job_id = ?',
    );
    this.setRemote = db.prepare<[string, string, string, string]>(
      'UPDATE remote_jobs SET remote_job_id = ?, remote_status = ?, last_error = NULL, updated_at = ? WHERE job_id = ?',
    );
    this.setStatus = db.prepare<[string, string, string]>(
      'UPDATE remote_jobs SET remote_status = ?, last_error = NULL, updated_at = ? WHERE job_id = ?',
    );
    this.setError = db.prepare<[string, string, string]>('UPDATE remote_jobs SET last_error = ?, updated_at = ? WHERE job_id = ?');
    // The local job's label and cancel flag (migration 001's jobs table, read only): the runner task carries neither.
    this.selectLocal = db.prepare<[string], { name: string | null; cancel_requested: number }>(
      'SELECT name, cancel_requested FROM jobs WHERE id = ?',
    );
    this.setEndpoint = db.prepare<[string, string, string]>(
      'UPDATE remote_jobs SET endpoint_url = ?, updated_at = ? WHERE job_id = ? AND remote_job_id IS NULL',
    );
  }

  get(jobId: string): RemoteJobRow | undefined {
    return this.selectOne.get(jobId);
  }

  /** Inserts the row unless it exists (a restart keeps the endpoint and key of the first attempt); returns it. */
  ensure(row: { jobId: string; endpointUrl: string; product: string; remoteModelId: string; idempotencyKey: string }): RemoteJobRow {
    const now = new Date().toISOString();
    this.insert.run(row.jobId, row.endpointUrl, row.product, row.remoteModelId, row.idempotencyKey, now, now);
    return this.get(row.jobId)!;
  }

  recordSubmission(jobId: string): void {
    this.countSubmission.run(new Date().toISOString(), jobId);
  }

  recordRemoteJob(jobId: string, remoteJobId: string, remoteStatus: string): void {
    this.setRemote.run(remoteJobId, remoteStatus, new Date().toISOString(), jobId);
  }

  recordStatus(jobId: string, remoteStatus: string): void {
    this.setStatus.run(remoteStatus, new Date().toISOString(), jobId);
  }

  recordError(jobId: string, message: string): void {
    this.setError.run(message, new Date().toISOString(), jobId);
  }

  /** A job not yet accepted anywhere follows the endpoint the user configured since (a typo fixed in Settings). */
  retarget(jobId: string, endpointUrl: string): void {
    this.setEndpoint.run(endpointUrl, new Date().toISOString(), jobId);
  }

  /** The local job's name and whether a cancel was requested (an abort without one is a shutdown). */
  localJob(jobId: string): { name: string | null; cancelRequested: boolean } | undefined {
    const row = this.selectLocal.get(jobId);
    return row ? { name: row.name, cancelRequested: row.cancel_requested === 1 } : undefined;
  }
}
