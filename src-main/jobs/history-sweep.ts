/**
 * Job-history retention: finished jobs older than the policy's `job_history_days` are deleted with their artifact
 * files and uploaded recordings. A job of a batch goes only with its whole batch, once the batch is complete and
 * every item finished before the cutoff (a batch never shows half its items). Ledger rows stay: they are the
 * account's billing record (migration 006 let them outlive the job). Rows of any table that references a deleted job
 * or batch (artifacts, batch items, hosted-forwarding state) are deleted with it, found from the schema so a table
 * added later cannot make the sweep fail on a foreign key.
 */
import { rmdirSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { TERMINAL_STATUSES } from '../common/job-states.js';
import type { JobCore } from './job-core.js';

/** Most jobs and batches deleted per sweep, so one sweep never holds the database for long. Default 200 / 50. */
export const HISTORY_JOBS_PER_SWEEP = 200;
export const HISTORY_BATCHES_PER_SWEEP = 50;

interface OldJob {
  id: string;
  input_json: string;
  input_purged_at: string | null;
}

interface Reference {
  tbl: string;
  col: string;
}

const TERMINAL_SQL = TERMINAL_STATUSES.map((s) => `'${s}'`).join(', ');
/** Never deleted by reference: the ledger outlives jobs; jobs of a batch are deleted one by one with their files. */
const KEPT_TABLES = new Set(['ledger', 'jobs']);

/** Returns sweep(beforeIso): deletes what finished before `beforeIso`; answers how many jobs were deleted. */
export function createHistorySweep(core: JobCore, uploadedFiles: (inputJson: string) => string[]): (beforeIso: string) => number {
  const { db } = core.repos;
  const oldJobs = db.prepare<[string, number], OldJob>(
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
  const batchJobs = db.prepare<[string], OldJob>('SELECT id, input_json, input_purged_at FROM jobs WHERE batch_id = ?');
  const liveArtifacts = db.prepare<[string], { path: string }>('SELECT path FROM artifacts WHERE job_id = ? AND deleted_at IS NULL');
  const dropKeys = db.prepare('DELETE FROM idempotency_keys WHERE resource_type = ? AND resource_id = ?');
  const dropJob = db.prepare('DELETE FROM jobs WHERE id = ?');
  const dropBatch = db.prepare('DELETE FROM batches WHERE id = ?');
  const referencing = db.prepare<[string], Reference>(
    `SELECT m.name AS tbl, f."from" AS col FROM sqlite_master m, pragma_foreign_key_list(m.name) f
     WHERE m.type = 'table' AND f."table" = ?`,
  );

  function dependents(table: string): { run(id: string): unknown }[] {
    return referencing
      .all(table)
      .filter((r) => !KEPT_TABLES.has(r.tbl))
      .map((r) => db.prepare(`DELETE FROM "${r.tbl.replaceAll('"', '""')}" WHERE "${r.col.replaceAll('"', '""')}" = ?`));
  }

  /** Deletes a file we own; false when it is still there (a locked file is tried again next sweep). */
  function unlinkOwned(path: string): boolean {
    try {
      unlinkSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return false;
    }
    try {
      rmdirSync(dirname(path)); // the job's (or request's) folder, once empty
    } catch {
      // other files remain
    }
    return true;
  }

  function removeFiles(job: OldJob): boolean {
    let ok = true;
    for (const { path } of liveArtifacts.all(job.id)) ok = unlinkOwned(path) && ok;
    if (job.input_purged_at === null) {
      let uploads: string[] = [];
      try {
        uploads = uploadedFiles(job.input_json);
      } catch {
        // an unreadable input names no file of ours
      }
      for (const path of uploads) ok = unlinkOwned(path) && ok;
    }
    try {
      rmdirSync(join(core.artifactsDir, job.id));
    } catch {
      // never created, or not empty
    }
    return ok;
  }

  return (beforeIso) => {
    const jobRefs = dependents('jobs');
    const batchRefs = dependents('batches');
    const deleteJobRows = (id: string): void => {
      for (const statement of jobRefs) statement.run(id);
      dropKeys.run('job', id);
      dropJob.run(id);
    };
    let deleted = 0;

    for (const job of oldJobs.all(beforeIso, HISTORY_JOBS_PER_SWEEP)) {
      if (core.active.has(job.id) || !removeFiles(job)) continue;
      core.machine.tx(() => deleteJobRows(job.id));
      deleted += 1;
    }

    for (const { id } of oldBatches.all(beforeIso, beforeIso, HISTORY_BATCHES_PER_SWEEP)) {
      const jobs = batchJobs.all(id);
      if (jobs.some((job) => core.active.has(job.id))) continue;
      let ok = true;
      for (const job of jobs) ok = removeFiles(job) && ok;
      if (!ok) continue;
      core.machine.tx(() => {
        for (const job of jobs) deleteJobRows(job.id);
        for (const statement of batchRefs) statement.run(id);
        dropKeys.run('batch', id);
        dropBatch.run(id);
      });
      deleted += jobs.length;
    }
    return deleted;
  };
}
