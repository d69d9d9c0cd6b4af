/**
 * remote_jobs (migration 003): one row per local job forwarded to the hosted service. The row (with its
 * Idempotency-Key) is written BEFORE the first POST, so a crash between the POST and recording the hosted id is
 * repaired by posting again with the same key: the hosted service answers with the job it already has.
 */
import { isoAt, systemClock, type Clock } from './clock.js';
import type { Db } from './db.js';

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

export interface RemoteJobsRepo {
  get(jobId: string): RemoteJobRow | undefined;
  /** Inserts the row unless it exists (a restart keeps the endpoint and key of the first attempt); returns it. */
  ensure(row: { jobId: string; endpointUrl: string; product: string; remoteModelId: string; idempotencyKey: string }): RemoteJobRow;
  recordSubmission(jobId: string): void;
  recordRemoteJob(jobId: string, remoteJobId: string, remoteStatus: string): void;
  recordStatus(jobId: string, remoteStatus: string): void;
  recordError(jobId: string, message: string): void;
  /** A job not yet accepted anywhere follows the endpoint the user configured since (a typo fixed in Settings). */
  retarget(jobId: string, endpointUrl: string): void;
  /** The local job's name and whether a cancel was requested (an abort without one is a shutdown). */
  localJob(jobId: string): { name: string | null; cancelRequested: boolean } | undefined;
}

export function createRemoteJobsRepo(db: Db, clock: Clock = systemClock): RemoteJobsRepo {
  const selectOne = db.prepare<[string], RemoteJobRow>('SELECT * FROM remote_jobs WHERE job_id = ?');
  const insert = db.prepare<[string, string, string, string, string, string, string]>(
    `INSERT INTO remote_jobs (job_id, endpoint_url, product, remote_model_id, idempotency_key, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(job_id) DO NOTHING`,
  );
  const countSubmission = db.prepare<[string, string]>(
    'UPDATE remote_jobs SET submissions = submissions + 1, updated_at = ? WHERE job_id = ?',
  );
  const setRemote = db.prepare<[string, string, string, string]>(
    'UPDATE remote_jobs SET remote_job_id = ?, remote_status = ?, last_error = NULL, updated_at = ? WHERE job_id = ?',
  );
  const setStatus = db.prepare<[string, string, string]>(
    'UPDATE remote_jobs SET remote_status = ?, last_error = NULL, updated_at = ? WHERE job_id = ?',
  );
  const setError = db.prepare<[string, string, string]>('UPDATE remote_jobs SET last_error = ?, updated_at = ? WHERE job_id = ?');
  const setEndpoint = db.prepare<[string, string, string]>(
    'UPDATE remote_jobs SET endpoint_url = ?, updated_at = ? WHERE job_id = ? AND remote_job_id IS NULL',
  );
  // The local job's label and cancel flag (migration 001's jobs table, read only): the runner task carries neither.
  const selectLocal = db.prepare<[string], { name: string | null; cancel_requested: number }>(
    'SELECT name, cancel_requested FROM jobs WHERE id = ?',
  );
  const get = (jobId: string): RemoteJobRow | undefined => selectOne.get(jobId);
  return {
    get,
    ensure: (row) => {
      const now = isoAt(clock);
      insert.run(row.jobId, row.endpointUrl, row.product, row.remoteModelId, row.idempotencyKey, now, now);
      return get(row.jobId)!;
    },
    recordSubmission: (jobId) => void countSubmission.run(isoAt(clock), jobId),
    recordRemoteJob: (jobId, remoteJobId, remoteStatus) => void setRemote.run(remoteJobId, remoteStatus, isoAt(clock), jobId),
    recordStatus: (jobId, remoteStatus) => void setStatus.run(remoteStatus, isoAt(clock), jobId),
    recordError: (jobId, message) => void setError.run(message, isoAt(clock), jobId),
    retarget: (jobId, endpointUrl) => void setEndpoint.run(endpointUrl, isoAt(clock), jobId),
    localJob: (jobId) => {
      const row = selectLocal.get(jobId);
      return row ? { name: row.name, cancelRequested: row.cancel_requested === 1 } : undefined;
    },
  };
}
