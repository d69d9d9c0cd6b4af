/**
 * Pause and resume (POST /v1/speech-to-text/{id}/pause|resume). A paused job is `queued` with error_code `paused`:
 * the scheduler leaves it alone, it does not expire, and it keeps its committed segments. Pausing a running job asks
 * its engine to stop after the current segment (the same signal as a cancel, remembered as `pause_requested`), and
 * the executor then puts it back in the queue, paused. Resuming puts it back in line with a new queue window; a
 * running job whose pause has not landed yet just carries on from its checkpoint. Finished jobs answer 409.
 */
import { ApiError, PAUSED } from '../../common/errors.js';
import { isTerminal } from '../../common/job-states.js';
import { isoAt } from '../../store/clock.js';
import type { JobRow } from '../../store/jobs-repo.js';
import type { JobCore } from './job-core.js';

export const PAUSED_MESSAGE = 'Paused: the job keeps its place and what it has transcribed; resume it to continue.';

export interface PauseControl {
  pause(jobId: string): Promise<void>;
  resume(jobId: string): Promise<void>;
  /** A pause written by another instance (same database, another node) reaches a run of this one (scheduler pass). */
  notice(jobId: string): Promise<void>;
}

function assertNotFinished(row: JobRow, action: string): void {
  if (isTerminal(row.status)) throw new ApiError('conflict', `job ${row.id} is ${row.status}; only a queued or running job can be ${action}`);
}

/** `wake`: asks the loop for a pass (a resumed job is back in line). */
export function createPauseControl(core: JobCore, wake: () => void): PauseControl {
  const { store, machine, active, options } = core;

  function stopRun(jobId: string): void {
    const run = active.get(jobId);
    if (!run || run.controller.signal.aborted) return;
    run.pausing = true;
    run.controller.abort();
  }

  return {
    async pause(jobId) {
      const running = await machine.tx(async (tx) => {
        const row = await tx.repos.jobs.get(jobId);
        if (!row) return false;
        assertNotFinished(row, 'paused');
        if (row.status === 'queued') {
          if (row.error_code !== PAUSED) await tx.patch(row, { error_code: PAUSED, error_message: PAUSED_MESSAGE });
          return false;
        }
        if (!row.pause_requested) await tx.patch(row, { pause_requested: 1 });
        return true;
      });
      if (running) stopRun(jobId);
    },

    async resume(jobId) {
      await machine.tx(async (tx) => {
        const row = await tx.repos.jobs.get(jobId);
        if (!row) return;
        assertNotFinished(row, 'resumed');
        if (row.status === 'queued' && row.error_code === PAUSED) {
          await tx.patch(row, { error_code: null, error_message: null, deadline_at: isoAt(options.clock, options.queueWindowSeconds * 1000) });
        } else if (row.status === 'running' && row.pause_requested) {
          await tx.patch(row, { pause_requested: 0 });
        }
      });
      wake();
    },

    async notice(jobId) {
      if ((await store.repos.jobs.get(jobId))?.pause_requested) stopRun(jobId);
    },
  };
}
