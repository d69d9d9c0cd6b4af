/**
 * Pause and resume (POST /v1/speech-to-text/{id}/pause|resume). A paused job is `queued` with error_code `paused`:
 * the scheduler leaves it alone, it does not expire, and it keeps its committed segments. Pausing a running job asks
 * its engine to stop after the current segment (the same signal as a cancel, remembered as `pause_requested`), and
 * the executor then puts it back in the queue, paused. Resuming puts it back in line with a new queue window; a
 * running job whose pause has not landed yet just carries on from its checkpoint. Finished jobs answer 409.
 */
import { ApiError, PAUSED } from '../common/errors.js';
import { isTerminal } from '../common/job-states.js';
import { isoAt } from '../store/clock.js';
import type { JobRow } from '../store/jobs-repo.js';
import type { JobCore } from './job-core.js';

export const PAUSED_MESSAGE = 'Paused: the job keeps its place and what it has transcribed; resume it to continue.';

export interface PauseControl {
  pause(jobId: string): void;
  resume(jobId: string): void;
  /** A pause written by another instance on the same database reaches a run of this one (scheduler pass). */
  notice(jobId: string): void;
}

function assertNotFinished(row: JobRow, action: string): void {
  if (isTerminal(row.status)) throw new ApiError('conflict', `job ${row.id} is ${row.status}; only a queued or running job can be ${action}`);
}

export function createPauseControl(core: JobCore): PauseControl {
  const { repos, machine, active, options } = core;

  function stopRun(jobId: string): void {
    const run = active.get(jobId);
    if (!run || run.controller.signal.aborted) return;
    run.pausing = true;
    run.controller.abort();
  }

  return {
    pause(jobId) {
      let running = false;
      machine.tx(() => {
        const row = repos.jobs.get(jobId);
        if (!row) return;
        assertNotFinished(row, 'paused');
        if (row.status === 'queued') {
          if (row.error_code !== PAUSED) machine.patch(row, { error_code: PAUSED, error_message: PAUSED_MESSAGE });
        } else {
          if (!row.pause_requested) machine.patch(row, { pause_requested: 1 });
          running = true;
        }
      });
      if (running) stopRun(jobId);
    },

    resume(jobId) {
      machine.tx(() => {
        const row = repos.jobs.get(jobId);
        if (!row) return;
        assertNotFinished(row, 'resumed');
        if (row.status === 'queued' && row.error_code === PAUSED) {
          machine.patch(row, { error_code: null, error_message: null, deadline_at: isoAt(options.clock, options.queueWindowSeconds * 1000) });
        } else if (row.status === 'running' && row.pause_requested) {
          machine.patch(row, { pause_requested: 0 });
        }
      });
      core.kick();
    },

    notice(jobId) {
      if (repos.jobs.get(jobId)?.pause_requested) stopRun(jobId);
    },
  };
}
