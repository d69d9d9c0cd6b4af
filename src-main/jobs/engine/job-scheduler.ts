/**
 * The scheduler: one pass claims queued jobs in an immediate transaction, starts what free capacity allows, fails
 * jobs whose model is unavailable, and marks the rest with their waiting code. Hosted jobs pass the monthly spending
 * cap first (jobs/spending-cap.ts): the quote is reserved in the same transaction as the claim, or the job waits with
 * `waiting_for_budget` (and keeps its place: it does not expire while it waits, and gets a fresh window when released).
 *
 * Claims hold a lease (`lease_expires_at`, renewed by the runs: job-executor.ts) so that a node that dies gives its
 * jobs back; on PostgreSQL the queue is read with `FOR UPDATE SKIP LOCKED`, so nodes passing at the same time claim
 * different jobs (store/postgres/jobs-repo.ts).
 *
 * A pass runs after every change (a job created or finished) and on a timer. What it costs must not grow with the
 * queue, or a thousand queued jobs make every job pay for the thousand (bench/jobs-throughput.ts went from 120 to 69
 * jobs/s between 300 and 1000 jobs): it reads only as many queued rows as it has free slots for (more only when some
 * of them cannot start), the sweep that expires every overdue queued job (a scan of the whole queue) runs on the
 * timer's passes only, and a job is checked against its own deadline when it is about to start, so an overdue job
 * never starts.
 */
import type { WaitingCode } from '../../common/errors.js';
import { isoAt } from '../../store/clock.js';
import type { EngineKind } from '../../engines/engine-types.js';
import type { ModelDefinition } from '../../engines/model-definition.js';
import type { JobRow } from '../../store/jobs-repo.js';
import type { BatchHold } from './batch-hold.js';
import { CANCELLED_MESSAGE, LOCAL_ENGINES, nowIso, type JobCore } from './job-core.js';
import { DEFAULT_RUNNER_CONCURRENCY } from './job-runner.js';
import type { JobTx } from './state-machine.js';

/** Queue rows read per page while looking for startable jobs, and new jobs marked waiting per pass. */
const SCAN_PAGE = 100;
const SCAN_LIMIT = 1000;
const BUDGET_WAIT: WaitingCode = 'waiting_for_budget';

/** Free places in one pass: idle workers, places in busy workers' lines (cheap tasks only), hosted slots. */
interface Capacity {
  local: number;
  spare: number;
  remote: number;
}

/**
 * Work done first in a pass's transaction (settling the runs that finished); returns what to call once that
 * transaction has committed (null) or failed (the error).
 */
export type InTx = (tx: JobTx) => Promise<(error: unknown) => void>;

/** Runs `fn` in machine.tx with `inTx` first; `inTx`'s callback learns whether the commit happened. */
async function txWith<T>(machine: JobCore['machine'], inTx: InTx | undefined, fn: (tx: JobTx) => Promise<T>): Promise<T> {
  let after: ((error: unknown) => void) | undefined;
  let result: T;
  try {
    result = await machine.tx(async (tx) => {
      after = await inTx?.(tx);
      return fn(tx);
    });
  } catch (error) {
    after?.(error);
    throw error;
  }
  after?.(null);
  return result;
}

export interface Scheduler {
  /**
   * One pass; `sweep` also expires every overdue queued job (the timer's passes). `inTx` runs first inside the pass's
   * transaction (jobs that finished are settled in the same commit as the claims of the jobs that take their workers);
   * what it returns is called once that transaction has committed (null) or failed (the error).
   */
  schedule(sweep?: boolean, inTx?: InTx): Promise<void>;
  /** Inside a tx: queued jobs past their deadline → expired. */
  expireOverdue(tx: JobTx): Promise<void>;
  /** The next pass looks for hosted work past the local jobs again (the spending cap changed: held work may start). */
  rewalk(): void;
}

export function createScheduler(
  core: JobCore,
  launch: (row: JobRow, definition: ModelDefinition) => void,
  hold: BatchHold,
  noticePause: (jobId: string) => Promise<void>,
): Scheduler {
  const { options, store, machine, pool, active, instanceId } = core;
  const { resolveModel } = options;
  const now = (): string => nowIso(core);
  /** Hosted slots that were free when the last walk of the whole queue found no job for them; null: walk again. */
  let idleRemoteWalk: number | null = null;
  /** The database's data_version when other connections' cancel and pause requests were last looked for. */
  let seenVersion = -1;
  /**
   * When a look for unmarked jobs last found none: the jobs repo's unmarkedStamp and the data_version then. While
   * neither has moved (nothing created or requeued here, nothing committed elsewhere), the look is skipped: it cost
   * a pass 30-80 µs even when it found nothing (bench/jobs-throughput.ts).
   */
  let noneUnmarked: { stamp: number; version: number } | null = null;
  /**
   * Jobs whose model was unknown when last placed, left queued while the models are looked for (refreshModels); a
   * job still unknown after that look fails. `lookForModels`: a look is due after this pass's transaction.
   */
  const modelLookedFor = new Set<string>();
  let lookForModels = false;

  async function setWaiting(tx: JobTx, row: JobRow, code: WaitingCode, message: string): Promise<void> {
    if (row.error_code === code && row.error_message === message) return;
    await tx.patch(row, { error_code: code, error_message: message, ...freshWindow(row, code) });
  }

  /** Until when a claim made now holds (renewed by the run while it goes on). */
  function leaseUntil(): string {
    return isoAt(options.clock, options.leaseSeconds * 1000);
  }

  /** A job leaving the budget wait (which never expires) gets a new queue window from now. */
  function freshWindow(row: JobRow, code: string | null = null): { deadline_at?: string } {
    return row.error_code === BUDGET_WAIT && code !== BUDGET_WAIT ? { deadline_at: isoAt(options.clock, options.queueWindowSeconds * 1000) } : {};
  }

  /**
   * Hosted work's quote against the monthly cap: null when the job may start (and what it reserves), else why it
   * waits. A job that already holds a reservation (it was forwarded, then went back to the queue) or belongs to a
   * batch reserved as a whole is not asked again.
   */
  async function spendingGate(tx: JobTx, row: JobRow): Promise<{ reserve: number | null } | { wait: string }> {
    if (row.reserved_usd_micro !== null) return { reserve: null };
    if (row.batch_id && (await tx.repos.batches.get(row.batch_id))?.reserved_usd_micro != null) return { reserve: null };
    const quote = row.estimated_usd_micro ?? 0;
    const wait = await core.spendingCap.check(tx.repos, row, quote);
    return wait ? { wait } : { reserve: quote };
  }

  async function expireOverdue(tx: JobTx): Promise<void> {
    await hold.expireOverdue(tx);
    for (const row of await tx.repos.jobs.overdue(now())) {
      await tx.transition(row, 'expired', { error_code: 'expired', error_message: expiredMessage() });
    }
  }

  function expiredMessage(): string {
    const days = options.queueWindowSeconds / 86_400;
    const window = days >= 1 ? `${+days.toFixed(2)} days` : `${options.queueWindowSeconds} s`;
    return `The job waited longer than ${window} to start.`;
  }

  async function schedule(sweep = false, inTx?: InTx): Promise<void> {
    try {
      await checkCancelRequests();
      await hold.pass();
      if (sweep) await machine.tx((tx) => expireOverdue(tx));
    } catch (error) {
      if (inTx) await txWith(machine, inTx, async () => undefined); // the runs that finished are settled all the same
      throw error;
    }
    if (!options.runsJobs) {
      if (inTx) await txWith(machine, inTx, async () => undefined);
      return;
    }
    // A pass that settles opens its transaction anyway: the walk's first page finds whether anything is queued.
    if (!inTx && !(await store.repos.jobs.anyQueued())) return;
    const runner = options.runners.remote;
    const remoteFree = runner ? (runner.concurrency ?? DEFAULT_RUNNER_CONCURRENCY) - [...active.values()].filter((a) => a.remote).length : 0;
    // Runs launched but not yet on the pool hold workers it still counts as idle (job-core.ts launching).
    const launching = core.launching.n;
    const capacity: Capacity = { local: Math.max(0, pool.idle - launching), spare: launching > 0 ? 0 : pool.spare, remote: remoteFree };
    // A free hosted slot is looked for past the local jobs only when it may find something new: on the timer's passes
    // (readiness changes), when more slots are free than at the last walk that found nothing for them, or on the first
    // pass. New and requeued jobs are placed below whatever the walk did.
    const walkRemote = sweep || idleRemoteWalk === null || remoteFree > idleRemoteWalk;
    const walking = { local: capacity.local + capacity.spare, remote: walkRemote ? capacity.remote : 0 };
    // No free slot, and no job can be waiting for its mark: the transaction would write nothing. Such passes follow
    // every finished run (its kick), after the pass that settled it had already filled the slot it freed: skipping
    // their transaction halved the transactions of bench/jobs-throughput.ts's settling.
    if (!inTx && walking.local <= 0 && walking.remote <= 0 && (await unmarkedLookIsMoot())) {
      if (walkRemote) idleRemoteWalk = null; // what the walk would have found: no free hosted slot
      return;
    }
    const toStart: { row: JobRow; definition: ModelDefinition }[] = [];
    let foundNone: { stamp: number; version: number } | null | undefined;
    await txWith(machine, inTx, async (tx) => {
      // Walk the queue in order while a slot is free; after that only new jobs need a waiting code. A page holds as
      // many rows as there are free slots, doubling while rows are passed over (waiting for a model, the network), or
      // as many as a line opened on the last page has places.
      const visited = new Set<string>();
      let after: JobRow | null = null;
      let pageSize = Math.min(SCAN_PAGE, Math.max(1, walking.local) + Math.max(0, walking.remote));
      let walkedToEnd = false;
      while (walking.local > 0 || walking.remote > 0) {
        const page = await tx.repos.jobs.queuedAfter(after, pageSize);
        for (const row of page) {
          if (walking.local <= 0 && walking.remote <= 0) break;
          visited.add(row.id);
          const started = await place(tx, row, capacity);
          walking.local = capacity.local + capacity.spare; // fewer (a job waits for an idle worker) or more (a line opened)
          walking.remote = Math.min(walking.remote, capacity.remote);
          if (started) toStart.push(started);
        }
        after = page[page.length - 1] ?? null;
        if (page.length < pageSize) {
          walkedToEnd = true;
          break;
        }
        pageSize = Math.min(SCAN_PAGE, Math.max(pageSize * 2, walking.local + walking.remote));
      }
      if (walkRemote) idleRemoteWalk = walkedToEnd && capacity.remote > 0 ? capacity.remote : null;
      const stamp = await tx.repos.jobs.unmarkedStamp();
      if (unmarkedLookIsMootAt(stamp)) return;
      const unmarked = await tx.repos.jobs.queuedUnmarked(SCAN_LIMIT);
      for (const row of unmarked) {
        if (visited.has(row.id)) continue;
        const started = await place(tx, row, capacity);
        if (started) toStart.push(started);
      }
      foundNone = unmarked.length === 0 ? { stamp, version: seenVersion } : null;
    });
    // Only once committed: a rolled-back pass may leave rows unmarked that it had marked.
    if (foundNone !== undefined) noneUnmarked = foundNone;
    for (const { row, definition } of toStart) launch(row, definition);
    if (lookForModels) {
      lookForModels = false;
      noneUnmarked = null; // the jobs left queued are looked at again
      await options.refreshModels();
    }
  }

  /** Whether a look for unmarked jobs would find none: nothing created or requeued here, nothing committed elsewhere. */
  async function unmarkedLookIsMoot(): Promise<boolean> {
    return noneUnmarked !== null && unmarkedLookIsMootAt(await store.repos.jobs.unmarkedStamp());
  }

  /** The same, given the unmarked-queue stamp as read now (inside a transaction: through its repos). */
  function unmarkedLookIsMootAt(stamp: number): boolean {
    return noneUnmarked !== null && noneUnmarked.stamp === stamp && noneUnmarked.version === seenVersion;
  }

  /** Inside the scheduler's tx: starts, fails, or marks one queued job waiting. */
  async function place(tx: JobTx, row: JobRow, capacity: Capacity): Promise<{ row: JobRow; definition: ModelDefinition } | undefined> {
    if (row.cancel_requested) {
      await tx.transition(row, 'cancelled', { error_code: 'cancelled', error_message: CANCELLED_MESSAGE });
      return undefined;
    }
    // Work waiting for the budget never expires (released, it gets a fresh window: freshWindow).
    if (row.deadline_at !== null && row.deadline_at <= now() && row.error_code !== BUDGET_WAIT) {
      await tx.transition(row, 'expired', { error_code: 'expired', error_message: expiredMessage() });
      return undefined;
    }
    const definition = resolveModel(row.model_id);
    const fail = async (message: string): Promise<undefined> => {
      await tx.transition(row, 'failed', { error_code: 'model_unavailable', error_message: message });
      return undefined;
    };
    if (!definition) {
      if (!modelLookedFor.has(row.id)) {
        modelLookedFor.add(row.id);
        lookForModels = true;
        return undefined; // placed again at the next pass, after the look
      }
      modelLookedFor.delete(row.id);
      return fail(`Model ${row.model_id} is no longer in the catalogue.`);
    }
    if (modelLookedFor.size > 0) modelLookedFor.delete(row.id);
    if (definition.downloading) {
      await setWaiting(tx, row, 'waiting_for_model', waitingMessage('waiting_for_model'));
      return undefined;
    }
    if (definition.status !== 'available') {
      return fail(`Model ${row.model_id} is unavailable${definition.reason ? `: ${definition.reason}` : ''}.`);
    }
    if (definition.engine === 'remote') {
      const runner = options.runners.remote;
      if (!runner) return fail(`Model ${row.model_id} needs the hosted service, which is not configured.`);
      const waiting = (await runner.readiness?.(definition, { jobId: row.id, batchId: row.batch_id })) ?? null;
      if (waiting) {
        if (typeof waiting === 'string') await setWaiting(tx, row, waiting, waitingMessage(waiting));
        else await setWaiting(tx, row, waiting.code, waiting.message);
        return undefined;
      }
      const gate = await spendingGate(tx, row);
      if ('wait' in gate) {
        await setWaiting(tx, row, BUDGET_WAIT, gate.wait);
        return undefined;
      }
      if (capacity.remote <= 0) {
        await setWaiting(tx, row, 'waiting_for_capacity', 'Waiting for a free slot to the hosted service.');
        return undefined;
      }
      capacity.remote--;
      if (gate.reserve !== null) {
        const claimed = await tx.transition(row, 'running', { claimed_by: instanceId, lease_expires_at: leaseUntil(), reserved_usd_micro: gate.reserve, ...freshWindow(row) });
        return { row: claimed, definition };
      }
    } else if (!LOCAL_ENGINES.has(definition.engine)) {
      return fail(`Model ${row.model_id} names an unknown engine ${definition.engine}.`);
    } else if (capacity.local > 0) {
      capacity.local--;
      // A cheap task given to an idle worker opens its line (worker-pool.ts slotFor: an idle worker first, then the
      // shortest line): the jobs behind it fill that line in this pass instead of in one more transaction after it.
      if (pool.cheap(definition.engine as EngineKind)) capacity.spare += pool.tasksPerWorker - 1;
    } else if (capacity.spare > 0 && pool.cheap(definition.engine as EngineKind)) {
      capacity.spare--; // waits in a busy worker's line of cheap tasks (worker-pool.ts)
    } else {
      // A job that waits for an idle worker is not overtaken by cheap ones behind it: they would lengthen the lines
      // it waits for. This also ends the walk.
      capacity.spare = 0;
      await setWaiting(tx, row, 'waiting_for_capacity', `All ${pool.size} workers are busy.`);
      return undefined;
    }
    return { row: await tx.transition(row, 'running', { claimed_by: instanceId, lease_expires_at: leaseUntil() }), definition };
  }

  function waitingMessage(code: WaitingCode): string {
    if (code === 'waiting_for_network') return 'Waiting for the network to reach the hosted service.';
    if (code === 'waiting_for_model') return 'Waiting for the model download to finish.';
    return 'Waiting for a free worker.';
  }

  /**
   * Cancel and pause requests written by another instance (same database, or another node) reach the runs of this
   * one. This instance's own requests stop its runs directly (job-service.ts cancelRows, job-pause.ts), so the rows
   * are read again only when another connection has committed since the last look.
   */
  async function checkCancelRequests(): Promise<void> {
    const version = await store.othersVersion();
    if (version === seenVersion) return;
    seenVersion = version;
    for (const [id, run] of active) {
      if (run.controller.signal.aborted) continue;
      const row = await store.repos.jobs.get(id);
      if (row?.cancel_requested) run.controller.abort();
      else await noticePause(id);
    }
  }

  return {
    schedule,
    expireOverdue,
    rewalk: () => {
      idleRemoteWalk = null;
    },
  };
}
