/**
 * remote_jobs on PostgreSQL, with the semantics of store/remote-jobs-repo.ts. `ensure` is `INSERT … ON CONFLICT
 * (job_id) DO NOTHING` and then a read: whichever node inserts first, every node reads the same endpoint and
 * Idempotency-Key. `recordSubmission` counts in one UPDATE (`submissions + 1`), so counts from two nodes add up.
 * `retarget` changes only a job not yet accepted (`remote_job_id IS NULL`); the other `record…` methods update one
 * row (the later commit's value stays).
 */
import { isoAt } from '../clock.js';
import type { RemoteJobRow, RemoteJobsRepo } from '../remote-jobs-repo.js';
import type { Async } from '../store.js';
import type { PgShared } from './shared.js';
import type { Sql } from './sql.js';

const COLUMNS = 'job_id, endpoint_url, product, remote_model_id, idempotency_key, remote_job_id, remote_status, submissions, last_error, created_at, updated_at';
const SELECT_ONE = `SELECT ${COLUMNS} FROM remote_jobs WHERE job_id = $1`;
const INSERT = `INSERT INTO remote_jobs (job_id, endpoint_url, product, remote_model_id, idempotency_key, created_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT (job_id) DO NOTHING`;
const COUNT_SUBMISSION = 'UPDATE remote_jobs SET submissions = submissions + 1, updated_at = $1 WHERE job_id = $2';
const SET_REMOTE = 'UPDATE remote_jobs SET remote_job_id = $1, remote_status = $2, last_error = NULL, updated_at = $3 WHERE job_id = $4';
const SET_STATUS = 'UPDATE remote_jobs SET remote_status = $1, last_error = NULL, updated_at = $2 WHERE job_id = $3';
const SET_ERROR = 'UPDATE remote_jobs SET last_error = $1, updated_at = $2 WHERE job_id = $3';
const SET_ENDPOINT = 'UPDATE remote_jobs SET endpoint_url = $1, updated_at = $2 WHERE job_id = $3 AND remote_job_id IS NULL';
const SELECT_LOCAL = 'SELECT name, cancel_requested FROM jobs WHERE id = $1';

export function createPgRemoteJobsRepo(sql: Sql, shared: PgShared): Async<RemoteJobsRepo> {
  const now = (): string => isoAt(shared.clock);
  const get = (jobId: string): Promise<RemoteJobRow | undefined> => sql.one<RemoteJobRow>(SELECT_ONE, [jobId]);
  return {
    get,
    async ensure(row) {
      await sql.run(INSERT, [row.jobId, row.endpointUrl, row.product, row.remoteModelId, row.idempotencyKey, now()]);
      return (await get(row.jobId))!;
    },
    recordSubmission: async (jobId) => void (await sql.run(COUNT_SUBMISSION, [now(), jobId])),
    recordRemoteJob: async (jobId, remoteJobId, remoteStatus) => void (await sql.run(SET_REMOTE, [remoteJobId, remoteStatus, now(), jobId])),
    recordStatus: async (jobId, remoteStatus) => void (await sql.run(SET_STATUS, [remoteStatus, now(), jobId])),
    recordError: async (jobId, message) => void (await sql.run(SET_ERROR, [message, now(), jobId])),
    retarget: async (jobId, endpointUrl) => void (await sql.run(SET_ENDPOINT, [endpointUrl, now(), jobId])),
    async localJob(jobId) {
      const row = await sql.one<{ name: string | null; cancel_requested: number }>(SELECT_LOCAL, [jobId]);
      return row ? { name: row.name, cancelRequested: row.cancel_requested === 1 } : undefined;
    },
  };
}
