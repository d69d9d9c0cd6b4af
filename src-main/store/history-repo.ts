/**
 * What the job-history sweep (jobs/history-sweep.ts) reads and deletes: finished stand-alone jobs and complete
 * batches older than a cutoff, and the rows that go with them. Rows of any table that references a job or batch
 * (artifacts, batch items, hosted-forwarding state) are found from the schema, so a table a later migration adds
 * cannot make the sweep fail on a foreign key. The ledger is never deleted by reference: it outlives jobs
 * (migration 006). Deletions must run inside the caller's write transaction.
 */
import { TERMINAL_STATUSES } from '../common/job-states.js';
import type { Db } from './db.js';

export interface HistoryJobRow {
  id: string;
  input_json: string;
  input_purged_at: string | null;
}

export interface HistoryRepo {
  /** Finished jobs outside any batch that finished before `beforeIso`, oldest first. */
  oldJobs(beforeIso: string, limit: number): HistoryJobRow[];
  /** Complete batches whose every item finished before `beforeIso`, oldest first. */
  oldBatches(beforeIso: string, limit: number): string[];
  batchJobs(batchId: string): HistoryJobRow[];
  /** Paths of a job's artifact files not yet deleted. */
  liveArtifactPaths(jobId: string): string[];
  /** Deletes a job's row, its idempotency key and every row referencing it. */
  deleteJob(jobId: string): void;
  /** Deletes a batch's row, its idempotency key and every row referencing it (its jobs first, with deleteJob). */
  deleteBatch(batchId: string): void;
}

interface Reference {
  tbl: string;
  col: string;
}

const TERMINAL_SQL = TERMINAL_STATUSES.map((s) => `'${s}'`).join(', ');
/** Never deleted by reference: the ledger outlives jobs; jobs of a batch are deleted one by one with their files. */
const KEPT_TABLES = new Set(['ledger', 'jobs']);

export function createHistoryRepo(db: Db): HistoryRepo {
  const oldJobs = db.prepare<[string, number], HistoryJobRow>(
    `SELECT id, input_json, input_purged_at FROM jobs
     WHERE batch_id IS NULL AND finished_at IS NOT NULL AND finished_at < ? AND status IN (${TERMINAL_SQL})
     ORDER BY finished_at LIMIT ?`,
  );
  const oldBatches = db.prepare<[string, string, number], { id: string }>(
    `SELECT b.id FROM batches b
     WHERE b.status = 'complete' AND b.finished_at IS NOT NULL AND b.finished_at < ?
       AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.batch_id = b.id
                       AND (j.status NOT IN (${TERMINAL_SQL}) OR j.finished_at IS NULL OR j.finished_at >= ?))
     ORDER BY b.finished_at LIMIT ?`,
  );
  const batchJobs = db.prepare<[string], HistoryJobRow>('SELECT id, input_json, input_purged_at FROM jobs WHERE batch_id = ?');
  const liveArtifacts = db.prepare<[string], { path: string }>('SELECT path FROM artifacts WHERE job_id = ? AND deleted_at IS NULL');
  const dropKeys = db.prepare<[string, string]>('DELETE FROM idempotency_keys WHERE resource_type = ? AND resource_id = ?');
  const dropJob = db.prepare<[string]>('DELETE FROM jobs WHERE id = ?');
  const dropBatch = db.prepare<[string]>('DELETE FROM batches WHERE id = ?');
  const referencing = db.prepare<[string], Reference>(
    `SELECT m.name AS tbl, f."from" AS col FROM sqlite_master m, pragma_foreign_key_list(m.name) f
     WHERE m.type = 'table' AND f."table" = ?`,
  );
  const dependents = (table: string): { run(id: string): unknown }[] =>
    referencing
      .all(table)
      .filter((r) => !KEPT_TABLES.has(r.tbl))
      .map((r) => db.prepare<[string]>(`DELETE FROM "${r.tbl.replaceAll('"', '""')}" WHERE "${r.col.replaceAll('"', '""')}" = ?`));
  // The schema is complete once the database is open (every migration ran), so these are found once.
  const jobRefs = dependents('jobs');
  const batchRefs = dependents('batches');

  return {
    oldJobs: (beforeIso, limit) => oldJobs.all(beforeIso, limit),
    oldBatches: (beforeIso, limit) => oldBatches.all(beforeIso, beforeIso, limit).map((r) => r.id),
    batchJobs: (batchId) => batchJobs.all(batchId),
    liveArtifactPaths: (jobId) => liveArtifacts.all(jobId).map((r) => r.path),
    deleteJob: (jobId) => {
      for (const statement of jobRefs) statement.run(jobId);
      dropKeys.run('job', jobId);
      dropJob.run(jobId);
    },
    deleteBatch: (batchId) => {
      for (const statement of batchRefs) statement.run(batchId);
      dropKeys.run('batch', batchId);
      dropBatch.run(batchId);
    },
  };
}
