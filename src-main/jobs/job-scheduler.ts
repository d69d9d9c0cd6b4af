/**
 * The scheduler: one pass claims queued jobs in an immediate transaction (expiring overdue ones first), starts what
 * free capacity allows, fails jobs whose model is unavailable, and marks the rest with their waiting code.
 */
import type { WaitingCode } from '../common/errors.js';
import type { ModelDefinition } from '../engines/model-definition.js';
import type { JobRow } from '../store/jobs-repo.js';
import type { BatchHold } from './batch-hold.js';
import { LOCAL_ENGINES, nowIso, type JobCore } from './job-core.js';
import { DEFAULT_RUNNER_CONCURRENCY } from './job-runner.js';

/** Queue rows read per page while looking for startable jobs, and new jobs marked waiting per pass. */
const SCAN_PAGE = 100;
const SCAN_LIMIT = 1000;

export interface Scheduler {
  schedule(): void;
  /** Inside a tx: queued jobs past their deadline → expired. */
  expireOverdue(): void;
}

export function createScheduler(
  core: JobCore,
  launch: (row: JobRow, definition: ModelDefinition) => void,
  hold: BatchHold,
  noticePause: (jobId: string) => void,
): Scheduler {
  const { options, repos, machine, pool, active, instanceId } = core;
  const { resolveModel } = options;
  const now = (): string => nowIso(core);

  function setWaiting(row: JobRow, code: WaitingCode, message: string): void {
    if (row.error_code !== code || row.error_message !== message) machine.patch(row, { error_code: code, error_message: message });
  }

  function expireOverdue(): void {
    hold.expireOverdue();
    for (const row of repos.jobs.overdue(now())) {
      const days = options.queueWindowSeconds / 86_400;
      const window = days >= 1 ? `${+days.toFixed(2)} days` : `${options.queueWindowSeconds} s`;
      machine.transition(row, 'expired', { error_code: 'expired', error_message: `The job waited longer than ${window} to start.` });
    }
  }

  function schedule(): void {
    checkCancelRequests();
    hold.pass();
    if (repos.jobs.queued(1).length === 0) return;
    const runner = options.runners.remote;
    const capacity = {
      local: pool.idle,
      remote: (runner?.concurrency ?? DEFAULT_RUNNER_CONCURRENCY) - [...active.values()].filter((a) => a.remote).length,
    };
    const toStart: { row: JobRow; definition: ModelDefinition }[] = [];
    machine.tx(() => {
      expireOverdue();
      // Walk the queue in order while a slot is free; after that only new jobs need a waiting code.
      const visited = new Set<string>();
      let after: JobRow | null = null;
      while (capacity.local > 0 || capacity.remote > 0) {
        const page = repos.jobs.queuedAfter(after, SCAN_PAGE);
        for (const row of page) {
          if (capacity.local <= 0 && capacity.remote <= 0) break;
          visited.add(row.id);
          const started = place(row, capacity);
          if (started) toStart.push(started);
        }
        after = page[page.length - 1] ?? null;
        if (page.length < SCAN_PAGE) break;
      }
      for (const row of repos.jobs.queuedUnmarked(SCAN_LIMIT)) {
        if (!visited.has(row.id)) place(row, capacity);
      }
    });
    for (const { row, definition } of toStart) launch(row, definition);
  }

  /** Inside the scheduler's tx: starts, fails, or marks one queued job waiting. */
  function place(row: JobRow, capacity: { local: number; remote: number }): { row: JobRow; definition: ModelDefinition } | undefined {
    if (row.cancel_requested) {
      machine.transition(row, 'cancelled', { error_code: 'cancelled', error_message: 'The job was cancelled.' });
      return undefined;
    }
    const definition = resolveModel(row.model_id);
    const fail = (message: string): undefined => {
      machine.transition(row, 'failed', { error_code: 'model_unavailable', error_message: message });
      return undefined;
    };
    if (!definition) return fail(`Model ${row.model_id} is no longer in the catalogue.`);
    if (definition.downloading) {
      setWaiting(row, 'waiting_for_model', waitingMessage('waiting_for_model'));
      return undefined;
    }
    if (definition.status !== 'available') {
      return fail(`Model ${row.model_id} is unavailable${definition.reason ? `: ${definition.reason}` : ''}.`);
    }
    if (definition.engine === 'remote') {
      const runner = options.runners.remote;
      if (!runner) return fail(`Model ${row.model_id} needs the hosted service, which is not configured.`);
      const waiting = runner.readiness?.(definition, { jobId: row.id, batchId: row.batch_id }) ?? null;
      if (waiting) {
        if (typeof waiting === 'string') setWaiting(row, waiting, waitingMessage(waiting));
        else setWaiting(row, waiting.code, waiting.message);
        return undefined;
      }
      if (capacity.remote <= 0) {
        setWaiting(row, 'waiting_for_capacity', 'Waiting for a free slot to the hosted service.');
        return undefined;
      }
      capacity.remote--;
    } else if (!LOCAL_ENGINES.has(definition.engine)) {
      return fail(`Model ${row.model_id} names an unknown engine ${definition.engine}.`);
    } else {
      if (capacity.local <= 0) {
        setWaiting(row, 'waiting_for_capacity', `All ${pool.size} workers are busy.`);
        return undefined;
      }
      capacity.local--;
    }
    return { row: machine.transition(row, 'running', { claimed_by: instanceId }), definition };
  }

  function waitingMessage(code: WaitingCode): string {
    if (code === 'waiting_for_network') return 'Waiting for the network to reach the hosted service.';
    if (code === 'waiting_for_model') return 'Waiting for the model download to finish.';
    return 'Waiting for a free worker.';
  }

  /** Cancel and pause requests written by another instance (same database) reach the runs of this one. */
  function checkCancelRequests(): void {
    for (const [id, run] of active) {
      if (run.controller.signal.aborted) continue;
      if (repos.jobs.get(id)?.cancel_requested) run.controller.abort();
      else noticePause(id);
    }
  }

  return { schedule, expireOverdue };
}
