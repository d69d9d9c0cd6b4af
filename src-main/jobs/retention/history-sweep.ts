/**
 * Job-history retention: finished jobs older than the policy's `job_history_days` are deleted with their artifact
 * files and uploaded recordings (with object storage, their objects in the bucket too). A job of a batch goes only with its whole batch, once the batch is complete and
 * every item finished before the cutoff (a batch never shows half its items). Ledger rows stay: they are the
 * account's billing record (migration 006 let them outlive the job). Rows of any table that references a deleted job
 * or batch (artifacts, batch items, hosted-forwarding state) are deleted with it (the SQL is store/history-repo.ts).
 */
import { dirname, join } from 'node:path';
import type { HistoryJobRow } from '../../store/history-repo.js';
import { removeIfEmpty } from '../../store/objects/stored-files.js';
import type { JobCore } from '../engine/job-core.js';

/** Most jobs and batches deleted per sweep, so one sweep never holds the database for long. Default 200 / 50. */
export const HISTORY_JOBS_PER_SWEEP = 200;
export const HISTORY_BATCHES_PER_SWEEP = 50;

/** Returns sweep(beforeIso): deletes what finished before `beforeIso`; answers how many jobs were deleted. */
export function createHistorySweep(core: JobCore, uploadedFiles: (inputJson: string) => string[]): (beforeIso: string) => Promise<number> {
  const { history } = core.store.repos;

  const { files } = core.options;

  /**
   * Deletes a file we own (with a bucket: its object too); false when it is still there (a locked file, an
   * unreachable bucket: tried again next sweep).
   */
  async function unlinkOwned(stored: string): Promise<boolean> {
    try {
      await files.remove(stored);
    } catch {
      return false;
    }
    await removeIfEmpty(dirname(files.pathOf(stored))); // the job's (or request's) folder, once empty
    return true;
  }

  async function removeFiles(job: HistoryJobRow): Promise<boolean> {
    let ok = true;
    for (const path of await history.liveArtifactPaths(job.id)) ok = (await unlinkOwned(path)) && ok;
    if (job.input_purged_at === null) {
      let uploads: string[] = [];
      try {
        uploads = uploadedFiles(job.input_json);
      } catch {
        // an unreadable input names no file of ours
      }
      for (const path of uploads) ok = (await unlinkOwned(path)) && ok;
    }
    await removeIfEmpty(join(core.artifactsDir, job.id)); // never created, or not empty
    return ok;
  }

  return async (beforeIso) => {
    let deleted = 0;

    for (const job of await history.oldJobs(beforeIso, HISTORY_JOBS_PER_SWEEP)) {
      if (core.active.has(job.id) || !(await removeFiles(job))) continue;
      await core.machine.tx((tx) => tx.repos.history.deleteJob(job.id));
      deleted += 1;
    }

    for (const id of await history.oldBatches(beforeIso, HISTORY_BATCHES_PER_SWEEP)) {
      const jobs = await history.batchJobs(id);
      if (jobs.some((job) => core.active.has(job.id))) continue;
      let ok = true;
      for (const job of jobs) ok = (await removeFiles(job)) && ok;
      if (!ok) continue;
      await core.machine.tx(async (tx) => {
        for (const job of jobs) await tx.repos.history.deleteJob(job.id);
        await tx.repos.history.deleteBatch(id);
      });
      deleted += jobs.length;
    }
    return deleted;
  };
}
