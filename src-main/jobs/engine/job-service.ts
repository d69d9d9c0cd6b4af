/**
 * createJobService: the durable job engine behind the HTTP API, the CLI and the cluster's worker nodes. Jobs live in
 * the store (the SQLite file, or PostgreSQL); the loop claims queued jobs in transactions and hands them to the
 * worker pool (on-device engines) or to a registered runner (hosted models); results, artifacts and charges are
 * committed in one transaction. The named parts, each in its own file:
 *
 * - loop.ts — passes and timers: the one owner of when work happens;
 * - job-scheduler.ts — a pass's claims (capacity, the spending cap, waiting codes, leases);
 * - job-executor.ts and settle-queue.ts — runs, checkpoints, leases renewed, settling;
 * - job-intake.ts, job-commands.ts — what changes jobs (create, cancel, retry, pause, resume);
 * - job-queries.ts, terminal-waiters.ts — what reads them, and who waits for their end;
 * - job-maintenance.ts, batch-hold.ts, state-machine.ts.
 *
 * This module wires them and answers the JobService contract.
 */
import { join } from 'node:path';
import { PAUSED } from '../../common/errors.js';
import { WorkerPool } from '../../engines/worker/worker-pool.js';
import { isoAt } from '../../store/clock.js';
import type { FoundArtifact } from '../../store/artifacts-repo.js';
import type { LedgerEntry } from '../../store/ledger-repo.js';
import { ensurePrivateDir } from '../../store/private-files.js';
import type { Store } from '../../store/store.js';
import { chargeBatch, storedSnapshot } from '../money/billing.js';
import { saveMonthlyCapMicro } from '../money/budget-policy.js';
import { createLiveReservations } from '../money/live-reservations.js';
import { createSpendingCap } from '../money/spending-cap.js';
import { createBatchHold } from './batch-hold.js';
import { recordDictation } from './dictation-job.js';
import { followHostedDictation } from './hosted-dictation-job.js';
import { markLive, newInstanceId } from './instance.js';
import { createCommands } from './job-commands.js';
import type { JobCore } from './job-core.js';
import { createExecutor } from './job-executor.js';
import { createIntake } from './job-intake.js';
import { createMaintenance, type LeaseCounter } from './job-maintenance.js';
import { createPauseControl, PAUSED_MESSAGE } from './job-pause.js';
import { createQueries } from './job-queries.js';
import { createScheduler } from './job-scheduler.js';
import { resolveOptions, type JobServiceOptions } from './job-service-options.js';
import type { JobService, NewBatch } from './job-service-types.js';
import { Loop } from './loop.js';
import { SettleQueue } from './settle-queue.js';
import { StateMachine } from './state-machine.js';
import { TerminalWaiters } from './terminal-waiters.js';
import { Views } from './views.js';

export type { JobServiceOptions } from './job-service-options.js';
export { MAX_BATCH_ITEMS, MAX_OPEN_BATCHES } from '../../common/limits.js';
export { MAX_CRASH_ATTEMPTS } from './run-settlement.js';

/** What the job engine offers beyond the JobService contract (HTTP artifact route, CLI keys, tests, UI, metrics). */
export interface JobEngine extends JobService {
  readonly store: Store;
  readonly instanceId: string;
  /** Its worker processes. */
  readonly pool: WorkerPool;
  /** Serves `GET /v1/artifacts/:token/:name`: undefined for an unknown token, `expired` for a deleted/expired file. */
  findArtifact(token: string): Promise<FoundArtifact | undefined>;
  /** Every charge of an account, oldest first. */
  ledgerFor(accountId: string): Promise<LedgerEntry[]>;
  /**
   * Expires overdue queued jobs, takes back jobs whose lease lapsed, deletes expired artifact files, old uploads and
   * (per the stored retention policy) old finished jobs, purges old idempotency keys (also on a timer).
   */
  runMaintenance(): Promise<void>;
  /** Worker pool figures for diagnostics and tests. */
  workerStats(): { size: number; idle: number; started: number; pids: number[] };
  /** Resolves when every worker process has started and loaded its modules. */
  workersReady(): Promise<void>;
  /** Starts one worker ahead of the first job (the desktop window was shown: a job is likely soon). */
  prewarmWorker(): void;
  /** Asks for a scheduling pass soon (coalesced). */
  kick(): void;
  /** Another node committed (a change notification): held waits look at their jobs, the loop passes. */
  othersCommitted(): Promise<void>;
  /** Figures for `/metrics`: claims made here and leases recovered here since start. */
  counters(): { claims: number; leaseExpiries: number };
}

export function createJobService(input: JobServiceOptions): JobEngine {
  const options = resolveOptions(input);
  const { clock, resolveModel, store } = options;
  const views = new Views(store.repos, options.publicBaseUrl);
  const machine = new StateMachine(store, clock, views, async (repos, batchId, items) => {
    const batch = await repos.batches.get(batchId);
    if (batch) await chargeBatch(repos.ledger, batch, items, storedSnapshot(batch.price_json, () => resolveModel(batch.model_id)), isoAt(clock));
  }, options.log);
  const pool =
    input.pool ??
    new WorkerPool({
      size: options.workers,
      logDir: join(options.dataDir, 'logs'),
      log: options.log.child('workers'),
      cancelGraceMs: options.cancelGraceMs,
      env: options.workerEnv,
      launcher: options.workerLauncher,
      warmEngines: options.warmEngines,
      cheapTaskMs: options.cheapTaskMs,
      startWorkers: options.startWorkers,
      idleExitMs: options.idleWorkerExitMs,
    });

  const core: JobCore = {
    options,
    store,
    views,
    machine,
    pool,
    instanceId: newInstanceId(),
    artifactsDir: join(options.dataDir, 'artifacts'),
    active: new Map(),
    launching: { n: 0 },
    spendingCap: createSpendingCap(clock),
    audioListeners: new Map(),
  };
  const { instanceId, artifactsDir, active } = core;
  const waiters = new TerminalWaiters(store);
  const counters = { claims: 0 };
  machine.statusListener = (row) => waiters.committed(row);
  const loop = new Loop(core);
  const wake = (): void => loop.wake();
  const settleQueue = new SettleQueue(() => loop.passSoon());
  const executor = createExecutor(core, settleQueue, wake);
  const hold = createBatchHold(core, wake);
  const pauses = createPauseControl(core, wake);
  const launch: typeof executor.launch = (row, definition) => {
    counters.claims += 1;
    executor.launch(row, definition);
  };
  const scheduler = createScheduler(core, launch, hold, (id) => pauses.notice(id));
  const leases: LeaseCounter = { lapsed: 0 };
  const maintenance = createMaintenance(core, (tx) => scheduler.expireOverdue(tx), leases);
  loop.attach({ scheduler, settleQueue, executor, maintenance });
  const intake = createIntake(core);
  const queries = createQueries(core);
  const commands = createCommands(core, { intake, hold, pauses, queries, wake });
  const liveReservations = createLiveReservations(store, core.spendingCap, clock);
  let shutdownPromise: Promise<void> | undefined;
  let starting: Promise<void> | undefined;

  const service: JobEngine = {
    store,
    instanceId,
    pool,
    events: machine.events,

    async createJob(job, idem) {
      const { id, replayed, row } = await intake.insertJob(job, idem ? { idem } : {});
      wake();
      return { job: row ? await views.job(row) : await queries.jobView(id), replayed };
    },

    async createJobAlong(job, along) {
      const inserted = await intake.insertJobAlong(job, along);
      if (!inserted) return null;
      wake();
      return inserted.row ? views.job(inserted.row) : queries.jobView(inserted.id);
    },

    recordDictation: (input) => recordDictation(core, input),

    async followHostedDictation(input) {
      const job = await followHostedDictation(core, input);
      wake();
      return job;
    },

    async createBatch(batch: NewBatch, idem) {
      const result = await intake.insertBatch(batch, idem);
      wake();
      return { batch: await queries.batchView(result.id), replayed: result.replayed };
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

    getJob: queries.getJob,
    getRecording: queries.getRecording,
    getBatch: queries.getBatch,
    listSegments: queries.listSegments,
    listJobs: queries.listJobs,
    listBatches: queries.listBatches,
    queueSummary: queries.queueSummary,
    findArtifact: queries.findArtifact,
    ledgerFor: queries.ledgerFor,
    waitForTerminal: (jobId, timeoutMs, signal) => waiters.wait(jobId, timeoutMs, signal),
    cancelJob: commands.cancelJob,
    cancelBatch: commands.cancelBatch,
    retryJob: commands.retryJob,
    pauseJob: commands.pauseJob,
    resumeJob: commands.resumeJob,

    start() {
      if (shutdownPromise) return Promise.resolve();
      starting ??= (async () => {
        ensurePrivateDir(artifactsDir);
        markLive(instanceId, true);
        // Eager workers start with the job engine, not with the first job (which would wait for a process and its
        // modules); on-demand ones (the service's) with the first job that needs one (worker-pool.ts).
        if (!input.pool && options.runsJobs) pool.start();
        await maintenance.recoverInterrupted();
        await maintenance.runMaintenance();
        if (!shutdownPromise) loop.start();
      })();
      return starting;
    },

    shutdown(graceMs = options.shutdownGraceMs) {
      shutdownPromise ??= (async () => {
        // A start still recovering finishes first (it then leaves the loop stopped).
        await starting?.catch(() => undefined);
        hold.stop();
        await loop.stop();
        const runs = [...active.values()];
        if (runs.length > 0 && graceMs > 0) {
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([Promise.allSettled(runs.map((r) => r.done)), new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
          clearTimeout(timer);
        }
        const left = [...active.entries()];
        if (left.length > 0) {
          await machine.tx(async (tx) => {
            for (const [id, run] of left) {
              const row = await executor.stillOurs(tx.repos, id, run);
              run.abandoned = true;
              // Not the job's fault: the interrupted run does not count as an attempt. A transcription continues
              // from its checkpoint on the next start (or another node); one being paused waits paused.
              const paused = row?.pause_requested ? { error_code: PAUSED, error_message: PAUSED_MESSAGE } : {};
              if (row) await tx.transition(row, 'queued', { attempts: Math.max(0, row.attempts - 1), ...paused });
            }
          });
          for (const [, run] of left) run.controller.abort();
        }
        if (!input.pool) await pool.stop();
        await executor.close();
        markLive(instanceId, false);
      })();
      return shutdownPromise;
    },

    budget: () => core.spendingCap.status(store.repos),
    reserveLive: (request) => liveReservations.open(request),

    async setMonthlyCap(micro) {
      await saveMonthlyCapMicro(store.repos.settings, micro);
      scheduler.rewalk();
      wake();
      return core.spendingCap.status(store.repos);
    },

    runMaintenance: () => maintenance.runMaintenance(),
    workerStats: () => ({ size: pool.size, idle: pool.idle, started: pool.started, pids: pool.pids() }),
    workersReady: () => pool.whenReady(),
    prewarmWorker: () => {
      if (loop.isRunning && options.runsJobs) pool.prewarm();
    },
    kick: wake,
    async othersCommitted() {
      await waiters.othersCommitted();
      wake();
    },
    counters: () => ({ claims: counters.claims, leaseExpiries: leases.lapsed }),
  };

  return service;
}
