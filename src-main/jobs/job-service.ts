/**
 * createJobService: the durable job engine behind the HTTP API and the CLI. Jobs live in SQLite; a scheduler claims
 * queued jobs in immediate transactions and hands them to the worker pool (on-device engines) or to a registered
 * runner (remote); results, artifacts and charges are committed in one transaction. The parts live in
 * job-intake.ts, job-scheduler.ts, job-executor.ts and job-maintenance.ts; this module wires them and answers the
 * JobService contract.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Batch, Job } from '../common/api-types.js';
import { ApiError, PAUSED } from '../common/errors.js';
import { isTerminal } from '../common/job-states.js';
import type { EngineInput } from '../engines/engine-types.js';
import { WorkerPool } from '../engines/worker/worker-pool.js';
import { isoAt } from '../store/clock.js';
import { toFound, type FoundArtifact } from '../store/artifacts-repo.js';
import type { JobRow } from '../store/jobs-repo.js';
import type { LedgerEntry } from '../store/ledger-repo.js';
import type { Repositories } from '../store/repositories.js';
import { createBatchHold } from './batch-hold.js';
import { chargeBatch, storedSnapshot } from './billing.js';
import { saveMonthlyCapMicro } from './budget-policy.js';
import { decodeCursor, encodeCursor, pageLimit } from './cursor.js';
import { markLive, newInstanceId } from './instance.js';
import { guard, type JobCore } from './job-core.js';
import { recordDictation } from './dictation-job.js';
import { followHostedDictation } from './hosted-dictation-job.js';
import { createExecutor } from './job-executor.js';
import { createIntake } from './job-intake.js';
import { createMaintenance } from './job-maintenance.js';
import { createPauseControl, PAUSED_MESSAGE } from './job-pause.js';
import { createScheduler } from './job-scheduler.js';
import { resolveOptions, type JobServiceOptions } from './job-service-options.js';
import type { JobService, ListQuery, NewBatch } from './job-service-types.js';
import { ensurePrivateDir } from '../store/private-files.js';
import { createSpendingCap } from './spending-cap.js';
import { createLiveReservations } from './live-reservations.js';
import { jobRecording } from './job-recording.js';
import { createJobViewCache } from './job-view-cache.js';
import { StateMachine } from './state-machine.js';
import { INDEX_BATCH, indexPending } from './transcripts-search-index.js';
import { segmentView } from './transcript-segments.js';
import { Views } from './views.js';

export type { JobServiceOptions } from './job-service-options.js';
export { MAX_BATCH_ITEMS, MAX_OPEN_BATCHES } from '../common/limits.js';
export { MAX_CRASH_ATTEMPTS } from './job-executor.js';

/** What the job engine offers beyond the JobService contract (HTTP artifact route, CLI keys, tests, UI). */
export interface JobEngine extends JobService {
  readonly repos: Repositories;
  readonly instanceId: string;
  /** Its worker processes (the start-up warm-up's private job engine borrows them: options.pool). */
  readonly pool: WorkerPool;
  /** Serves `GET /v1/artifacts/:token/:name`: undefined for an unknown token, `expired` for a deleted/expired file. */
  findArtifact(token: string): FoundArtifact | undefined;
  /** Every charge of an account, oldest first. */
  ledgerFor(accountId: string): LedgerEntry[];
  /**
   * Expires overdue queued jobs, deletes expired artifact files, old uploads and (per the stored retention policy) old
   * finished jobs, purges old idempotency keys (also on a timer).
   */
  runMaintenance(): void;
  /** Worker pool figures for diagnostics and tests. */
  workerStats(): { size: number; idle: number; started: number; pids: number[] };
  /** Resolves when every running worker process has loaded and warmed its engines. */
  workersReady(): Promise<void>;
  /** Starts a worker ahead of a job when none runs (on-demand workers: the desktop window was opened). */
  prewarmWorker(): void;
  /**
   * Asks for a scheduling pass soon (coalesced): a worker this engine shares with another one (the start-up
   * warm-up's, options.pool) was freed by the other's run, which this engine's own runs would not have told it.
   */
  kick(): void;
}

export function createJobService(input: JobServiceOptions): JobEngine {
  const options = resolveOptions(input);
  const { clock, resolveModel } = options;
  const { repos } = options;
  const views = new Views(repos, options.publicBaseUrl);
  const jobViews = createJobViewCache(repos.changes, options.publicBaseUrl);
  const machine = new StateMachine(repos, clock, views, (batchId, items) => {
    const batch = repos.batches.get(batchId);
    if (batch) chargeBatch(repos.ledger, batch, items, storedSnapshot(batch.price_json, () => resolveModel(batch.model_id)), isoAt(clock));
  });
  const borrowedPool = input.pool;
  const pool =
    borrowedPool ??
    new WorkerPool({
      size: options.workers,
      logDir: join(options.dataDir, 'logs'),
      cancelGraceMs: options.cancelGraceMs,
      env: options.workerEnv,
      launcher: options.workerLauncher,
      warmEngines: options.warmEngines,
      cheapTaskMs: options.cheapTaskMs,
      startWorkers: options.startWorkers,
      idleExitMs: options.idleWorkerExitMs,
    });

  let started = false;
  let stopping = false;
  let passPending = false;
  let shutdownPromise: Promise<void> | undefined;
  const timers: NodeJS.Timeout[] = [];

  const core: JobCore = {
    options,
    repos,
    views,
    machine,
    pool,
    instanceId: newInstanceId(),
    artifactsDir: join(options.dataDir, 'artifacts'),
    active: new Map(),
    kick,
    settleSoon: () => passSoon(),
    spendingCap: createSpendingCap(repos, clock),
    audioListeners: new Map(),
  };
  const { instanceId, artifactsDir, active } = core;
  const liveReservations = createLiveReservations(repos, core.spendingCap, clock);
  /**
   * Who waits for which job to end (waitForTerminal): found by id when a status is committed, so a thousand waiters
   * cost nothing per change and no view is built for them.
   */
  const terminalWaiters = new Map<string, Set<() => void>>();
  machine.statusListener = (row) => {
    if (!isTerminal(row.status)) return;
    const waiting = terminalWaiters.get(row.id);
    if (waiting) for (const finish of [...waiting]) finish();
  };
  const intake = createIntake(core);
  const executor = createExecutor(core);
  const hold = createBatchHold(core);
  const pauses = createPauseControl(core);
  const scheduler = createScheduler(core, executor.launch, hold, pauses.notice);
  const maintenance = createMaintenance(core, scheduler.expireOverdue);

  function kick(): void {
    if (started && !stopping) passSoon();
  }

  /**
   * One pass on the next turn of the event loop, however many runs finished and changes asked for one meanwhile:
   * a run's settling and the kick that follows every run used to be two passes, the second with nothing to do.
   */
  function passSoon(): void {
    if (passPending) return;
    passPending = true;
    setImmediate(() => {
      passPending = false;
      // Stopped meanwhile: only runs that finished are settled (pass() does nothing else while stopping).
      if ((started && !stopping) || executor.anyFinished()) guard('settling and scheduling', () => pass(false));
    });
  }

  /**
   * A scheduling pass that first settles the runs that finished, in the same transaction (one commit for the jobs
   * that ended and the claims of those taking their workers). While stopping only the settling is done. A pass with
   * nothing to settle is an ordinary one (it opens no transaction when it can start and mark nothing).
   */
  function pass(sweep: boolean): void {
    if (started && !stopping) return scheduler.schedule(sweep, executor.anyFinished() ? executor.settleFinished : undefined);
    let settled: ((error: unknown) => void) | undefined;
    try {
      machine.tx(() => void (settled = executor.settleFinished()));
    } catch (error) {
      settled?.(error);
      throw error;
    }
    settled?.(null);
  }

  /** When the timer last wrote search rows (or the service started): runs under way hold them back until then + delay. */
  let searchIndexedAt = 0;

  /**
   * The library search rows of transcriptions finished since the last tick (transcripts-search-index.ts; a search
   * catches up by itself before it reads). Jobs come first: while runs are under way the rows wait, up to
   * searchIndexDelayMs, and are written as soon as the engine is idle (each job's rows cost about as much main-thread
   * time as the rest of a trivial job's bookkeeping, bench/jobs-throughput.ts). Once begun, a batch per turn of the
   * event loop until none is pending.
   */
  function indexSearchRows(): void {
    if (stopping || !repos.search.anyPending()) return;
    if (active.size > 0 && performance.now() - searchIndexedAt < options.searchIndexDelayMs) return;
    indexSearchBatches();
  }

  function indexSearchBatches(): void {
    if (stopping) return;
    searchIndexedAt = performance.now();
    if (indexPending(repos) === INDEX_BATCH) setImmediate(() => guard('search index', indexSearchBatches));
  }

  function ownRow(accountId: string, product: string, jobId: string): JobRow | undefined {
    const row = repos.jobs.get(jobId);
    return row && row.account_id === accountId && row.product === product ? row : undefined;
  }

  function jobView(id: string): Job {
    const row = repos.jobs.get(id);
    if (!row) throw new Error(`job ${id} vanished`);
    return views.job(row);
  }

  function batchView(id: string): Batch {
    const row = repos.batches.get(id);
    if (!row) throw new Error(`batch ${id} vanished`);
    return views.batch(row);
  }

  const service: JobEngine = {
    repos,
    instanceId,
    pool,
    events: machine.events,

    createJob(job, idem) {
      const { id, replayed, row } = intake.insertJob(job, idem);
      kick();
      return { job: row ? views.job(row) : jobView(id), replayed };
    },

    recordDictation(input) {
      return recordDictation(core, input);
    },

    followHostedDictation(input) {
      const job = followHostedDictation(core, input);
      kick();
      return job;
    },

    createBatch(batch: NewBatch, idem) {
      const result = intake.insertBatch(batch, idem);
      kick();
      return { batch: batchView(result.id), replayed: result.replayed };
    },

    listenToAudio(jobId, listener) {
      let set = core.audioListeners.get(jobId);
      if (!set) core.audioListeners.set(jobId, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0 && core.audioListeners.get(jobId) === set) core.audioListeners.delete(jobId);
      };
    },

    getJob(accountId, product, jobId) {
      // Polled over and over: served from job-view-cache.ts while nothing was written (the view is frozen).
      const found = jobViews.get(jobId, () => {
        const row = repos.jobs.get(jobId);
        return row ? { accountId: row.account_id, view: views.job(row) } : undefined;
      });
      return found && found.accountId === accountId && found.view.product === product ? found.view : undefined;
    },

    getRecording(accountId, jobId) {
      const row = ownRow(accountId, 'speech-to-text', jobId);
      return row ? jobRecording(repos, row) : undefined;
    },

    getBatch(accountId, product, batchId) {
      const row = repos.batches.get(batchId);
      return row && row.account_id === accountId && row.product === product ? views.batch(row) : undefined;
    },

    waitForTerminal(jobId, timeoutMs, signal) {
      return new Promise<void>((resolve) => {
        const row = repos.jobs.get(jobId);
        if (!row || isTerminal(row.status) || signal?.aborted) return resolve();
        const finish = (): void => {
          clearTimeout(timer);
          const waiting = terminalWaiters.get(jobId);
          waiting?.delete(finish);
          if (waiting?.size === 0) terminalWaiters.delete(jobId);
          signal?.removeEventListener('abort', finish);
          resolve();
        };
        const timer = setTimeout(finish, Math.max(0, timeoutMs));
        let waiting = terminalWaiters.get(jobId);
        if (!waiting) terminalWaiters.set(jobId, (waiting = new Set()));
        waiting.add(finish);
        signal?.addEventListener('abort', finish, { once: true });
      });
    },

    cancelJob(accountId, product, jobId) {
      const row = ownRow(accountId, product, jobId);
      if (!row) return undefined;
      cancelRows([row]);
      return jobView(jobId);
    },

    cancelBatch(accountId, product, batchId) {
      const batch = repos.batches.get(batchId);
      if (!batch || batch.account_id !== accountId || batch.product !== product) return undefined;
      machine.tx(() => hold.cancel(batchId));
      cancelRows(repos.jobs.ofBatch(batchId));
      return batchView(batchId);
    },

    retryJob(accountId, product, jobId) {
      const row = ownRow(accountId, product, jobId);
      if (!row) return undefined;
      if (!['failed', 'cancelled', 'expired'].includes(row.status)) {
        throw new ApiError('conflict', `only failed, cancelled or expired jobs can be retried; this job is ${row.status}`);
      }
      if (row.input_purged_at) {
        throw new ApiError('conflict', 'the recording of this job was deleted after its retention window; upload it again');
      }
      const { id } = intake.insertJob(
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
        undefined,
        row,
      );
      kick();
      const retried = jobView(id);
      machine.events.emit('job-retried', jobId, retried, accountId);
      return retried;
    },

    pauseJob(accountId, product, jobId) {
      if (!ownRow(accountId, product, jobId)) return undefined;
      pauses.pause(jobId);
      return jobView(jobId);
    },

    resumeJob(accountId, product, jobId) {
      if (!ownRow(accountId, product, jobId)) return undefined;
      pauses.resume(jobId);
      return jobView(jobId);
    },

    listSegments(accountId, jobId, after, limit) {
      const row = ownRow(accountId, 'speech-to-text', jobId);
      if (!row) return undefined;
      const rows = repos.segments.page(jobId, after ?? -1, limit);
      const last = rows[rows.length - 1];
      const next_after = last ? last.idx : after;
      const more = last ? repos.segments.hasAfter(jobId, last.idx) : false;
      return {
        object: 'list',
        // A segment that held no words moves the cursor but is not shown.
        data: rows.filter((r) => r.text.trim() !== '').map(segmentView),
        next_after,
        complete: row.status === 'succeeded' && !more,
      };
    },

    listJobs(accountId, query: ListQuery) {
      const limit = pageLimit(query.limit);
      const rows = repos.jobs.page({ accountId, product: query.product ?? null, status: query.status ?? null, after: decodeCursor(query.cursor), limit: limit + 1 });
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return { data: page.map((r) => views.job(r)), next_cursor: rows.length > limit && last ? encodeCursor(last) : null };
    },

    listBatches(accountId, query: ListQuery) {
      const limit = pageLimit(query.limit);
      const rows = repos.batches.page(accountId, query.product ?? null, decodeCursor(query.cursor), limit + 1);
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return { data: page.map((r) => views.batch(r)), next_cursor: rows.length > limit && last ? encodeCursor(last) : null };
    },

    queueSummary(accountId) {
      const summary = { queued: 0, running: 0, pending: repos.batches.countPending(accountId ?? null), waiting: {} as Record<string, number> };
      for (const { status, error_code, n } of repos.jobs.countByStatus(accountId ?? null)) {
        if (status === 'running') summary.running += n;
        else {
          summary.queued += n;
          if (error_code) summary.waiting[error_code] = (summary.waiting[error_code] ?? 0) + n;
        }
      }
      return summary;
    },

    start() {
      if (started || shutdownPromise) return;
      ensurePrivateDir(artifactsDir);
      started = true;
      searchIndexedAt = performance.now();
      markLive(instanceId, true);
      // Eager workers start with the job engine, not with the first job (which would wait for a process and its
      // modules); on-demand ones (the service's) with the first job that needs one (worker-pool.ts).
      if (!borrowedPool) pool.start();
      maintenance.recoverInterrupted();
      maintenance.runMaintenance();
      timers.push(setInterval(() => guard('scheduling', () => pass(true)), options.schedulerIntervalMs).unref());
      timers.push(setInterval(() => guard('maintenance', maintenance.runMaintenance), options.maintenanceIntervalMs).unref());
      timers.push(setInterval(() => guard('search index', indexSearchRows), options.schedulerIntervalMs).unref());
      kick();
    },

    shutdown(graceMs = options.shutdownGraceMs) {
      shutdownPromise ??= (async () => {
        stopping = true;
        hold.stop();
        for (const t of timers) clearInterval(t);
        const runs = [...active.values()];
        if (runs.length > 0 && graceMs > 0) {
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([
            Promise.allSettled(runs.map((r) => r.done)),
            new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs))),
          ]);
          clearTimeout(timer);
        }
        const left = [...active.entries()];
        if (left.length > 0) {
          machine.tx(() => {
            for (const [id, run] of left) {
              const row = executor.stillOurs(id, run);
              run.abandoned = true;
              // Not the job's fault: the interrupted run does not count as an attempt. A transcription continues
              // from its checkpoint on the next start; one being paused waits paused.
              const paused = row?.pause_requested ? { error_code: PAUSED, error_message: PAUSED_MESSAGE } : {};
              if (row) machine.transition(row, 'queued', { attempts: Math.max(0, row.attempts - 1), ...paused });
            }
          });
          for (const [, run] of left) run.controller.abort();
        }
        if (!borrowedPool) await pool.stop();
        await executor.close();
        markLive(instanceId, false);
      })();
      return shutdownPromise;
    },

    findArtifact(token) {
      const row = repos.artifacts.byToken(token);
      return row ? toFound(row, clock()) : undefined;
    },

    budget: () => core.spendingCap.status(),
    reserveLive: (request) => liveReservations.open(request),

    setMonthlyCap(micro) {
      saveMonthlyCapMicro(repos.settings, micro);
      scheduler.rewalk();
      kick();
      return core.spendingCap.status();
    },

    ledgerFor: (accountId) => repos.ledger.forAccount(accountId),
    runMaintenance: () => maintenance.runMaintenance(),
    workerStats: () => ({ size: pool.size, idle: pool.idle, started: pool.started, pids: pool.pids() }),
    workersReady: () => pool.whenReady(),
    prewarmWorker: () => {
      if (started && !shutdownPromise) pool.prewarm();
    },
    kick,
  };

  function cancelRows(rows: JobRow[]): void {
    const abort: string[] = [];
    machine.tx(() => {
      for (const stale of rows) {
        const row = repos.jobs.get(stale.id);
        if (!row || isTerminal(row.status)) continue;
        if (row.status === 'queued') {
          machine.transition(row, 'cancelled', { error_code: 'cancelled', error_message: 'The job was cancelled.' });
        } else if (!row.cancel_requested) {
          machine.patch(row, { cancel_requested: 1 });
          abort.push(row.id);
        }
      }
    });
    for (const id of abort) active.get(id)?.controller.abort();
  }

  return service;
}

