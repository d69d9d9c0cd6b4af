/**
 * What a client asks the job engine to do to its jobs once they exist: cancel (a job, a batch), retry, pause and
 * resume. Each is one transaction through the state machine; a run of this instance that must stop is told after
 * the commit, and a run of another instance or node learns it from its next pass (job-scheduler.ts
 * checkCancelRequests) — the request is in the row.
 */
import type { Batch, Job } from '../../common/api-types.js';
import { ApiError } from '../../common/errors.js';
import { isTerminal } from '../../common/job-states.js';
import type { JobProduct, Product } from '../../common/products.js';
import type { EngineInput } from '../../engines/engine-types.js';
import type { JobRow } from '../../store/jobs-repo.js';
import type { BatchHold } from './batch-hold.js';
import { CANCELLED_MESSAGE, type JobCore } from './job-core.js';
import type { Intake } from './job-intake.js';
import type { PauseControl } from './job-pause.js';
import type { Queries } from './job-queries.js';
import type { JobTx } from './state-machine.js';

export function createCommands(core: JobCore, parts: { intake: Intake; hold: BatchHold; pauses: PauseControl; queries: Queries; wake: () => void }) {
  const { machine, active } = core;
  const { intake, hold, pauses, queries, wake } = parts;

  /** Inside a tx: cancels what is not finished; answers the runs of this instance to stop once committed. */
  async function cancelRows(tx: JobTx, rows: readonly JobRow[]): Promise<string[]> {
    const abort: string[] = [];
    for (const stale of rows) {
      const row = await tx.repos.jobs.get(stale.id);
      if (!row || isTerminal(row.status)) continue;
      if (row.status === 'queued') {
        await tx.transition(row, 'cancelled', { error_code: 'cancelled', error_message: CANCELLED_MESSAGE });
      } else if (!row.cancel_requested) {
        await tx.patch(row, { cancel_requested: 1 });
        abort.push(row.id);
      }
    }
    return abort;
  }

  function stopRuns(ids: readonly string[]): void {
    for (const id of ids) active.get(id)?.controller.abort();
  }

  return {
    async cancelJob(accountId: string, product: JobProduct, jobId: string): Promise<Job | undefined> {
      const row = await queries.ownRow(accountId, product, jobId);
      if (!row) return undefined;
      stopRuns(await machine.tx((tx) => cancelRows(tx, [row])));
      return queries.jobView(jobId);
    },

    async cancelBatch(accountId: string, product: Product, batchId: string): Promise<Batch | undefined> {
      const batch = await core.store.repos.batches.get(batchId);
      if (!batch || batch.account_id !== accountId || batch.product !== product) return undefined;
      const abort = await machine.tx(async (tx) => {
        await hold.cancel(tx, batchId);
        return cancelRows(tx, await tx.repos.jobs.ofBatch(batchId));
      });
      stopRuns(abort);
      return queries.batchView(batchId);
    },

    async retryJob(accountId: string, product: JobProduct, jobId: string): Promise<Job | undefined> {
      const row = await queries.ownRow(accountId, product, jobId);
      if (!row) return undefined;
      if (!['failed', 'cancelled', 'expired'].includes(row.status)) {
        throw new ApiError('conflict', `only failed, cancelled or expired jobs can be retried; this job is ${row.status}`);
      }
      if (row.input_purged_at) {
        throw new ApiError('conflict', 'the recording of this job was deleted after its retention window; upload it again');
      }
      const { id } = await intake.insertJob(
        {
          accountId,
          product: row.product,
          modelId: row.model_id,
          name: row.name,
          language: row.language,
          params: JSON.parse(row.params_json) as Record<string, unknown>,
          input: JSON.parse(row.input_json) as EngineInput,
          // Rows of earlier builds stored no estimate: the default (a text's length) applies.
          ...(row.price_json ? { estimatedSeconds: row.estimated_seconds } : {}),
        },
        { continues: row },
      );
      wake();
      const retried = await queries.jobView(id);
      machine.events.emit('job-retried', jobId, retried, accountId);
      return retried;
    },

    async pauseJob(accountId: string, product: Product, jobId: string): Promise<Job | undefined> {
      if (!(await queries.ownRow(accountId, product, jobId))) return undefined;
      await pauses.pause(jobId);
      return queries.jobView(jobId);
    },

    async resumeJob(accountId: string, product: Product, jobId: string): Promise<Job | undefined> {
      if (!(await queries.ownRow(accountId, product, jobId))) return undefined;
      await pauses.resume(jobId);
      return queries.jobView(jobId);
    },
  };
}
