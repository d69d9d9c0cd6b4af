/**
 * createJobService: the durable job engine behind the HTTP API and the CLI. Jobs live in SQLite; a scheduler claims
 * queued jobs in immediate transactions and hands them to the worker pool (on-device engines) or to a registered
 * runner (remote); results, artifacts and charges are committed in one transaction.
 */
import { copyFileSync, mkdirSync, renameSync, rmSync, statSync, unlinkSync, rmdirSync } from 'node:fs';
import { basename, dirname, join, relative, isAbsolute } from 'node:path';
import type { Batch, Job } from '../common/api-types.js';
import { ApiError, JobError, WAITING_CODES, type WaitingCode } from '../common/errors.js';
import { isTerminal } from '../common/job-states.js';
import type { EngineInput, EngineKind, EngineOutput, EngineTask } from '../engines/engine-types.js';
import type { ModelDefinition } from '../engines/model-definition.js';
import { WorkerCrashError, WorkerPool } from '../engines/worker/worker-pool.js';
import { isoAt } from '../store/clock.js';
import { toFound, type FoundArtifact } from '../store/artifacts-repo.js';
import { IDEMPOTENCY_TTL_MS } from '../store/idempotency-repo.js';
import { newId, newToken } from '../store/ids.js';
import type { JobRow } from '../store/jobs-repo.js';
import type { LedgerEntry } from '../store/ledger-repo.js';
import { createRepositories, type Repositories } from '../store/repositories.js';
import { chargeBatch, chargeJob, pricingOf } from './billing.js';
import { decodeCursor, encodeCursor, pageLimit } from './cursor.js';
import { markLive, newInstanceId, ownerAlive } from './instance.js';
import { DEFAULT_RUNNER_CONCURRENCY } from './job-runner.js';
import { resolveOptions, type JobServiceOptions } from './job-service-options.js';
import type { Idempotency, JobService, ListQuery, NewBatch, NewJob } from './job-service-types.js';
import { StateMachine } from './state-machine.js';
import { Views } from './views.js';

export type { JobServiceOptions } from './job-service-options.js';

/** Batches hold at most this many items (spec). */
export const MAX_BATCH_ITEMS = 50;
/** Open batches per account (spec). */
export const MAX_OPEN_BATCHES = 2;
/** A worker crash is retried once: a job whose run crashed with attempts ≥ this fails `engine_crashed`. */
export const MAX_CRASH_ATTEMPTS = 2;
/** A job interrupted by service crashes this many times fails `interrupted` instead of being requeued again. */
export const MAX_RECOVERY_ATTEMPTS = 5;
/** Progress below this change is not written (a chatty engine must not turn into a write storm). */
const PROGRESS_STEP = 0.01;

/** What the job engine offers beyond the JobService contract (HTTP artifact route, CLI keys, tests, UI). */
export interface JobEngine extends JobService {
  readonly repos: Repositories;
  readonly instanceId: string;
  /** Serves `GET /v1/artifacts/:token/:name`: undefined for an unknown token, `expired` for a deleted/expired file. */
  findArtifact(token: string): FoundArtifact | undefined;
  /** Every charge of an account, oldest first. */
  ledgerFor(accountId: string): LedgerEntry[];
  /** Expires overdue queued jobs, deletes expired artifact files, purges old idempotency keys (also on a timer). */
  runMaintenance(): void;
  /** Worker pool figures for diagnostics and tests. */
  workerStats(): { size: number; idle: number; started: number; pids: number[] };
}

interface ActiveRun {
  controller: AbortController;
  remote: boolean;
  /** Shutdown requeued the job: whatever the run returns is ignored. */
  abandoned: boolean;
  done: Promise<void>;
  lastProgress: number | null;
}

const LOCAL_ENGINES: ReadonlySet<string> = new Set<EngineKind>(['espeak', 'sherpa-tts', 'sherpa-asr', 'pocketsphinx', 'rnnoise', 'gtcrn', 'test']);

export function createJobService(input: JobServiceOptions): JobEngine {
  const options = resolveOptions(input);
  const { clock, resolveModel } = options;
  const repos = createRepositories(options.db, clock);
  const views = new Views(repos, options.publicBaseUrl);
  const instanceId = newInstanceId();
  const artifactsDir = join(options.dataDir, 'artifacts');
  const pool = new WorkerPool({
    size: options.workers,
    logDir: join(options.dataDir, 'logs'),
    cancelGraceMs: options.cancelGraceMs,
    env: options.workerEnv,
  });
  const machine = new StateMachine(repos, clock, views, (batchId, items) => {
    const batch = repos.batches.get(batchId);
    if (batch) chargeBatch(repos.ledger, batch, items, pricingOf(resolveModel(batch.model_id)), isoAt(clock));
  });
  const active = new Map<string, ActiveRun>();
  const now = (): string => isoAt(clock);

  let started = false;
  let stopping = false;
  let kickPending = false;
  let shutdownPromise: Promise<void> | undefined;
  const timers: NodeJS.Timeout[] = [];

  // ---- reading -------------------------------------------------------------------------------------------------

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

  // ---- creating ------------------------------------------------------------------------------------------------

  function checkModel(modelId: string): void {
    if (!resolveModel(modelId)) throw new ApiError('model_unavailable', `model ${modelId} is not in the catalogue`);
  }

  function newJobRow(job: Omit<NewJob, 'estimatedUsdMicro'> & { estimatedUsdMicro?: number | null }, batchId: string | null): JobRow {
    const at = clock();
    const created = at.toISOString();
    return {
      id: newId('job', at.getTime()),
      account_id: job.accountId,
      product: job.product,
      model_id: job.modelId,
      name: job.name,
      language: job.language,
      status: 'queued',
      error_code: null,
      error_message: null,
      params_json: JSON.stringify(job.params),
      input_json: JSON.stringify(job.input),
      duration_seconds: null,
      result_json: null,
      progress: null,
      batch_id: batchId,
      attempts: 0,
      cancel_requested: 0,
      claimed_by: null,
      estimated_usd_micro: job.estimatedUsdMicro ?? null,
      deadline_at: isoAt(clock, options.queueWindowSeconds * 1000),
      created_at: created,
      started_at: null,
      finished_at: null,
      updated_at: created,
    };
  }

  /** Inside a tx: the resource an idempotency key already names, or undefined; throws 409 on a different request. */
  function replayOf(accountId: string, type: 'job' | 'batch', idem: Idempotency | undefined): string | undefined {
    if (!idem) return undefined;
    const found = repos.idempotency.find(accountId, idem.key, now());
    if (!found) return undefined;
    if (found.request_hash !== idem.requestHash || found.resource_type !== type) {
      throw new ApiError(
        'idempotency_key_reused',
        'This Idempotency-Key was already used with a different request in the last 24 hours; use a new key.',
      );
    }
    return found.resource_id;
  }

  function rememberKey(accountId: string, type: 'job' | 'batch', id: string, idem: Idempotency | undefined): void {
    if (!idem) return;
    repos.idempotency.insert({
      account_id: accountId,
      key: idem.key,
      request_hash: idem.requestHash,
      resource_type: type,
      resource_id: id,
      created_at: now(),
      expires_at: isoAt(clock, IDEMPOTENCY_TTL_MS),
    });
  }

  function insertJob(job: NewJob, idem?: Idempotency): { id: string; replayed: boolean } {
    return machine.tx(() => {
      const replay = replayOf(job.accountId, 'job', idem);
      if (replay) return { id: replay, replayed: true };
      checkModel(job.modelId);
      const row = newJobRow(job, null);
      repos.jobs.insert(row);
      rememberKey(job.accountId, 'job', row.id, idem);
      machine.touch(row.id, null);
      return { id: row.id, replayed: false };
    });
  }

  // ---- scheduling ----------------------------------------------------------------------------------------------

  function kick(): void {
    if (kickPending || !started || stopping) return;
    kickPending = true;
    setImmediate(() => {
      kickPending = false;
      schedule();
    });
  }

  function setWaiting(row: JobRow, code: WaitingCode, message: string): void {
    if (row.error_code !== code || row.error_message !== message) machine.patch(row, { error_code: code, error_message: message });
  }

  function expireOverdue(): void {
    for (const row of repos.jobs.overdue(now())) {
      const days = options.queueWindowSeconds / 86_400;
      const window = days >= 1 ? `${+days.toFixed(2)} days` : `${options.queueWindowSeconds} s`;
      machine.transition(row, 'expired', { error_code: 'expired', error_message: `The job waited longer than ${window} to start.` });
    }
  }

  function schedule(): void {
    if (!started || stopping) return;
    checkCancelRequests();
    if (repos.jobs.queued(1).length === 0) return;
    const runner = options.runners.remote;
    let localFree = pool.idle;
    let remoteFree = (runner?.concurrency ?? DEFAULT_RUNNER_CONCURRENCY) - [...active.values()].filter((a) => a.remote).length;
    const toStart: { row: JobRow; definition: ModelDefinition }[] = [];
    machine.tx(() => {
      expireOverdue();
      for (const row of repos.jobs.queued(1000)) {
        if (row.cancel_requested) {
          machine.transition(row, 'cancelled', { error_code: 'cancelled', error_message: 'The job was cancelled.' });
          continue;
        }
        const definition = resolveModel(row.model_id);
        if (!definition) {
          machine.transition(row, 'failed', { error_code: 'model_unavailable', error_message: `Model ${row.model_id} is no longer in the catalogue.` });
          continue;
        }
        if (definition.downloading) {
          setWaiting(row, 'waiting_for_model', `Model ${row.model_id} is being downloaded.`);
          continue;
        }
        if (definition.status !== 'available') {
          const reason = definition.reason ? `: ${definition.reason}` : '';
          machine.transition(row, 'failed', { error_code: 'model_unavailable', error_message: `Model ${row.model_id} is unavailable${reason}.` });
          continue;
        }
        if (definition.engine === 'remote') {
          if (!runner) {
            machine.transition(row, 'failed', { error_code: 'model_unavailable', error_message: `Model ${row.model_id} needs the hosted service, which is not configured.` });
            continue;
          }
          const waiting = runner.readiness?.(definition) ?? null;
          if (waiting) {
            setWaiting(row, waiting, waitingMessage(waiting));
            continue;
          }
          if (remoteFree <= 0) {
            setWaiting(row, 'waiting_for_capacity', 'Waiting for a free slot to the hosted service.');
            continue;
          }
          remoteFree--;
        } else if (!LOCAL_ENGINES.has(definition.engine)) {
          machine.transition(row, 'failed', { error_code: 'model_unavailable', error_message: `Model ${row.model_id} names an unknown engine ${definition.engine}.` });
          continue;
        } else {
          if (localFree <= 0) {
            setWaiting(row, 'waiting_for_capacity', `All ${pool.size} workers are busy.`);
            continue;
          }
          localFree--;
        }
        toStart.push({ row: machine.transition(row, 'running', { claimed_by: instanceId }), definition });
      }
    });
    for (const { row, definition } of toStart) launch(row, definition);
  }

  function waitingMessage(code: WaitingCode): string {
    if (code === 'waiting_for_network') return 'Waiting for the network to reach the hosted service.';
    if (code === 'waiting_for_model') return 'Waiting for the model download to finish.';
    return 'Waiting for a free worker.';
  }

  /** Cancel requests written by another instance (same database) reach the runs of this one. */
  function checkCancelRequests(): void {
    for (const [id, run] of active) {
      if (!run.controller.signal.aborted && repos.jobs.get(id)?.cancel_requested) run.controller.abort();
    }
  }

  // ---- running -------------------------------------------------------------------------------------------------

  function launch(row: JobRow, definition: ModelDefinition): void {
    const run: ActiveRun = { controller: new AbortController(), remote: definition.engine === 'remote', abandoned: false, done: Promise.resolve(), lastProgress: null };
    active.set(row.id, run);
    run.done = execute(row, definition, run)
      .catch((error: unknown) => {
        // A bug in settling must not leave the job running forever: fail it.
        settleFailure(row.id, run, new JobError('engine_failed', `internal error: ${String(error)}`), definition);
      })
      .finally(() => {
        active.delete(row.id);
        kick();
      });
  }

  async function execute(row: JobRow, definition: ModelDefinition, run: ActiveRun): Promise<void> {
    const workDir = join(artifactsDir, row.id);
    rmSync(workDir, { recursive: true, force: true }); // leftovers of an interrupted attempt
    mkdirSync(workDir, { recursive: true });
    const base = {
      jobId: row.id,
      product: row.product,
      modelId: row.model_id,
      engineConfig: definition.engineConfig,
      params: JSON.parse(row.params_json) as Record<string, unknown>,
      input: JSON.parse(row.input_json) as EngineInput,
      workDir,
    };
    const handlers = {
      progress: (fraction: number) => onProgress(row.id, run, fraction),
      measured: (seconds: number) => onMeasured(row.id, run, seconds),
    };
    let output: EngineOutput;
    try {
      if (run.remote) {
        const runner = options.runners.remote;
        if (!runner) throw new JobError('model_unavailable', 'the hosted service is not configured');
        output = await withCancelGrace(
          runner.run(
            { ...base, accountId: row.account_id, definition, attempt: row.attempts },
            { signal: run.controller.signal, ...handlers, log: () => {} },
          ),
          run.controller.signal,
        );
      } else {
        const task: EngineTask = { ...base, engine: definition.engine as EngineKind };
        output = await pool.run(task, handlers, { signal: run.controller.signal, timeoutMs: options.runTimeoutSeconds * 1000 });
      }
    } catch (error) {
      settleFailure(row.id, run, error, definition);
      return;
    }
    settleSuccess(row.id, run, output, definition, workDir);
  }

  /** Remote runners that ignore their signal are given up on after the cancel grace. */
  function withCancelGrace<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const onAbort = (): void => {
        timer = setTimeout(() => reject(new JobError('cancelled', 'cancelled')), options.cancelGraceMs);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      promise.then(resolve, reject).finally(() => {
        signal.removeEventListener('abort', onAbort);
        if (timer) clearTimeout(timer);
      });
    });
  }

  /** The row if this instance still runs it (shutdown or another instance's recovery may have taken it back). */
  function stillOurs(jobId: string, run: ActiveRun): JobRow | undefined {
    if (run.abandoned) return undefined;
    const row = repos.jobs.get(jobId);
    return row && row.status === 'running' && row.claimed_by === instanceId ? row : undefined;
  }

  function onProgress(jobId: string, run: ActiveRun, fraction: number): void {
    if (!Number.isFinite(fraction)) return;
    const progress = Math.min(1, Math.max(0, fraction));
    if (run.lastProgress !== null && Math.abs(progress - run.lastProgress) < PROGRESS_STEP && progress < 1) return;
    run.lastProgress = progress;
    machine.tx(() => {
      const row = stillOurs(jobId, run);
      if (row) machine.patch(row, { progress });
    });
  }

  function onMeasured(jobId: string, run: ActiveRun, seconds: number): void {
    if (!Number.isFinite(seconds) || seconds < 0) return;
    machine.tx(() => {
      const row = stillOurs(jobId, run);
      if (row) machine.patch(row, { duration_seconds: seconds.toFixed(3) });
    });
  }

  /** Files the engine wrote elsewhere are moved into the job's folder so retention can find them. */
  function collectArtifacts(output: EngineOutput, workDir: string): { path: string; bytes: number; file: EngineOutput['artifacts'][number] }[] {
    return output.artifacts.map((file) => {
      let path = file.path;
      const rel = relative(workDir, path);
      if (rel.startsWith('..') || isAbsolute(rel)) {
        const target = join(workDir, basename(path));
        try {
          renameSync(path, target);
        } catch {
          copyFileSync(path, target);
          rmSync(path, { force: true });
        }
        path = target;
      }
      return { path, bytes: statSync(path).size, file };
    });
  }

  function settleSuccess(jobId: string, run: ActiveRun, output: EngineOutput, definition: ModelDefinition, workDir: string): void {
    if (!stillOurs(jobId, run)) return;
    let files: ReturnType<typeof collectArtifacts>;
    try {
      files = collectArtifacts(output, workDir);
    } catch (error) {
      settleFailure(jobId, run, new JobError('engine_failed', `the engine's output file could not be kept: ${String(error)}`), definition);
      return;
    }
    machine.tx(() => {
      const row = stillOurs(jobId, run);
      if (!row) return;
      if (row.cancel_requested) {
        machine.transition(row, 'cancelled', { error_code: 'cancelled', error_message: 'The job was cancelled.' });
        return;
      }
      const at = now();
      for (const { path, bytes, file } of files) {
        repos.artifacts.insert({
          id: newId('art', clock().getTime()),
          job_id: jobId,
          token: newToken(),
          file_name: basename(path),
          path,
          content_type: file.contentType,
          bytes,
          duration_seconds: file.durationSeconds === null ? null : file.durationSeconds.toFixed(3),
          sample_rate: file.sampleRate,
          channels: file.channels,
          created_at: at,
          expires_at: isoAt(clock, options.artifactTtlSeconds * 1000),
          deleted_at: null,
        });
      }
      const seconds = Math.max(0, output.durationSeconds);
      const done = machine.transition(row, 'succeeded', {
        result_json: JSON.stringify(output.result ?? {}),
        duration_seconds: seconds.toFixed(3),
      });
      chargeJob(repos.ledger, done, pricingOf(definition), seconds, at);
    });
  }

  function settleFailure(jobId: string, run: ActiveRun, error: unknown, _definition: ModelDefinition): void {
    machine.tx(() => {
      const row = stillOurs(jobId, run);
      if (!row) return;
      const code = error instanceof JobError ? String(error.code) : null;
      if (row.cancel_requested || code === 'cancelled') {
        machine.transition(row, 'cancelled', { error_code: 'cancelled', error_message: 'The job was cancelled.' });
      } else if (error instanceof WorkerCrashError) {
        if (row.attempts < MAX_CRASH_ATTEMPTS) machine.transition(row, 'queued');
        else machine.transition(row, 'failed', { error_code: 'engine_crashed', error_message: `The engine crashed: ${error.message} (attempt ${row.attempts}).` });
      } else if (code && (WAITING_CODES as readonly string[]).includes(code)) {
        machine.transition(row, 'queued', { error_code: code, error_message: (error as Error).message, attempts: Math.max(0, row.attempts - 1) });
      } else if (error instanceof JobError) {
        machine.transition(row, 'failed', { error_code: String(error.code), error_message: error.message });
      } else {
        const message = error instanceof Error ? error.message : String(error);
        machine.transition(row, 'failed', { error_code: run.remote ? 'remote_failed' : 'engine_failed', error_message: message });
      }
    });
  }

  // ---- maintenance ---------------------------------------------------------------------------------------------

  function recoverInterrupted(): void {
    machine.tx(() => {
      for (const row of repos.jobs.running()) {
        if (ownerAlive(row.claimed_by)) continue;
        if (row.attempts >= MAX_RECOVERY_ATTEMPTS) {
          machine.transition(row, 'failed', { error_code: 'interrupted', error_message: `The job was interrupted ${row.attempts} times (the service stopped while it ran).` });
        } else {
          machine.transition(row, 'queued');
        }
      }
    });
  }

  function sweepArtifacts(): void {
    for (const artifact of repos.artifacts.expired(now())) {
      try {
        unlinkSync(artifact.path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') continue; // try again next sweep
      }
      repos.artifacts.markDeleted(artifact.id, now());
      try {
        rmdirSync(dirname(artifact.path)); // only succeeds once the job's folder is empty
      } catch {
        // other artifacts of the job remain
      }
    }
  }

  function runMaintenance(): void {
    machine.tx(() => expireOverdue());
    sweepArtifacts();
    repos.idempotency.purgeExpired(now());
  }

  // ---- the service ---------------------------------------------------------------------------------------------

  const service: JobEngine = {
    repos,
    instanceId,
    events: machine.events,

    createJob(job, idem) {
      const { id, replayed } = insertJob(job, idem);
      kick();
      return { job: jobView(id), replayed };
    },

    createBatch(batch: NewBatch, idem) {
      if (batch.items.length === 0) throw new ApiError('invalid_request', 'a batch needs at least one item');
      if (batch.items.length > MAX_BATCH_ITEMS) {
        throw new ApiError('too_many_items', `a batch holds at most ${MAX_BATCH_ITEMS} items, got ${batch.items.length}`);
      }
      const result = machine.tx(() => {
        const replay = replayOf(batch.accountId, 'batch', idem);
        if (replay) return { id: replay, replayed: true };
        checkModel(batch.modelId);
        if (repos.batches.countOpen(batch.accountId) >= MAX_OPEN_BATCHES) {
          throw new ApiError('too_many_open_batches', `An account may have ${MAX_OPEN_BATCHES} open batches at a time; wait for one to complete.`);
        }
        const at = clock();
        const id = newId('bat', at.getTime());
        repos.batches.insert({
          id,
          account_id: batch.accountId,
          product: batch.product,
          model_id: batch.modelId,
          params_json: JSON.stringify(batch.params),
          status: 'open',
          file_count: batch.items.length,
          created_at: at.toISOString(),
          finished_at: null,
        });
        batch.items.forEach((item, position) => {
          const row = newJobRow(
            { accountId: batch.accountId, product: batch.product, modelId: batch.modelId, name: item.name, language: batch.language, params: batch.params, input: item.input },
            id,
          );
          repos.jobs.insert(row);
          repos.batches.insertItem({ batch_id: id, position, name: item.name, job_id: row.id });
          machine.touch(row.id, null);
        });
        machine.touch(null, id);
        rememberKey(batch.accountId, 'batch', id, idem);
        return { id, replayed: false };
      });
      kick();
      return { batch: batchView(result.id), replayed: result.replayed };
    },

    getJob(accountId, product, jobId) {
      const row = ownRow(accountId, product, jobId);
      return row ? views.job(row) : undefined;
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
          machine.events.off('job-changed', onChange);
          signal?.removeEventListener('abort', finish);
          resolve();
        };
        const onChange = (job: Job): void => {
          if (job.id === jobId && isTerminal(job.status)) finish();
        };
        const timer = setTimeout(finish, Math.max(0, timeoutMs));
        machine.events.on('job-changed', onChange);
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
      cancelRows(repos.jobs.ofBatch(batchId));
      return batchView(batchId);
    },

    retryJob(accountId, product, jobId) {
      const row = ownRow(accountId, product, jobId);
      if (!row) return undefined;
      if (!['failed', 'cancelled', 'expired'].includes(row.status)) {
        throw new ApiError('conflict', `only failed, cancelled or expired jobs can be retried; this job is ${row.status}`);
      }
      const { id } = insertJob({
        accountId,
        product: row.product,
        modelId: row.model_id,
        name: row.name,
        language: row.language,
        params: JSON.parse(row.params_json) as Record<string, unknown>,
        input: JSON.parse(row.input_json) as EngineInput,
        estimatedUsdMicro: row.estimated_usd_micro,
      });
      kick();
      return jobView(id);
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
      const summary = { queued: 0, running: 0, waiting: {} as Record<string, number> };
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
      mkdirSync(artifactsDir, { recursive: true });
      started = true;
      markLive(instanceId, true);
      recoverInterrupted();
      runMaintenance();
      timers.push(setInterval(schedule, options.schedulerIntervalMs).unref());
      timers.push(setInterval(runMaintenance, options.maintenanceIntervalMs).unref());
      kick();
    },

    shutdown(graceMs = options.shutdownGraceMs) {
      shutdownPromise ??= (async () => {
        stopping = true;
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
              const row = stillOurs(id, run);
              run.abandoned = true;
              // Not the job's fault: the interrupted run does not count as an attempt.
              if (row) machine.transition(row, 'queued', { attempts: Math.max(0, row.attempts - 1) });
            }
          });
          for (const [, run] of left) run.controller.abort();
        }
        await pool.stop();
        markLive(instanceId, false);
      })();
      return shutdownPromise;
    },

    findArtifact(token) {
      const row = repos.artifacts.byToken(token);
      return row ? toFound(row, clock()) : undefined;
    },

    ledgerFor: (accountId) => repos.ledger.forAccount(accountId),
    runMaintenance,
    workerStats: () => ({ size: pool.size, idle: pool.idle, started: pool.started, pids: pool.pids() }),
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

