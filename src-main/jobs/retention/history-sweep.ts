/**
 * Job-history retention: finished jobs older than the policy's `job_history_days` are deleted with their artifact
 * files and uploaded recordings. A job of a batch goes only with its whole batch, once the batch is complete and
 * every item finished before the cutoff (a batch never shows half its items). Ledger rows stay: they are the
 * account's billing record (migration 006 let them outlive the job). Rows of any table that references a deleted job
 * or batch (artifacts, batch items, hosted-forwarding state) are deleted with it (the SQL is store/history-repo.ts).
 */
import { rmdirSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { HistoryJobRow } from '../store/history-repo.js';
import type { JobCore } from './job-core.js';

/** Most jobs and batches deleted per sweep, so one sweep never holds the database for long. Default 200 / 50. */
export const HISTORY_JOBS_PER_SWEEP = 200;
export const HISTORY_BATCHES_PER_SWEEP = 50;

/** Returns sweep(beforeIso): deletes what finished before `beforeIso`; answers how many jobs were deleted. */
export function createHistorySweep(core: JobCore, uploadedFiles: (inputJson: string) => string[]): (beforeIso: string) => number {
  const { history } = core.repos;

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

  function removeFiles(job: HistoryJobRow): boolean {
    let ok = true;
    for (const path of history.liveArtifactPaths(job.id)) ok = unlinkOwned(path) && ok;
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
    let deleted = 0;

    for (const job of history.oldJobs(beforeIso, HISTORY_JOBS_PER_SWEEP)) {
      if (core.active.has(job.id) || !removeFiles(job)) continue;
      core.machine.tx(() => history.deleteJob(job.id));
      deleted += 1;
    }

    for (const id of history.oldBatches(beforeIso, HISTORY_BATCHES_PER_SWEEP)) {
      const jobs = history.batchJobs(id);
      if (jobs.some((job) => core.active.has(job.id))) continue;
      let ok = true;
      for (const job of jobs) ok = removeFiles(job) && ok;
      if (!ok) continue;
      core.machine.tx(() => {
        for (const job of jobs) history.deleteJob(job.id);
        history.deleteBatch(id);
      });
      deleted += jobs.length;
    }
    return deleted;
  };
}
