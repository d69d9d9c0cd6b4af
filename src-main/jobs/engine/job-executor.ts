/**
 * Runs a claimed job on the worker pool (on-device engines) or the remote runner, relays progress and the measured
 * duration, commits each recognised segment with the progress it brings (one transaction: a checkpoint), keeps the
 * claim's lease alive while the job runs, and settles the outcome (run-settlement.ts): success with artifacts and
 * charges in one transaction (a transcription's result built from its committed segments), or the right failure
 * (crash retried once, cancellation, pause, timeout, waiting again, engine error). A run resumes after the job's
 * last committed segment, so committed work is never done twice.
 *
 * A run's writes (progress, duration, checkpoints) are committed one after another, in the order the engine sent
 * them (`run.writes`): on PostgreSQL two transactions of one node may run at once, and a checkpoint must never land
 * before the one before it.
 */
import { mkdir, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { jobCancelled, JobError } from '../../common/errors.js';
import { isProduct } from '../../common/products.js';
import { durationString } from '../../common/duration.js';
import type { EngineInput, EngineKind, EngineOutput, EngineTask, RecognizedSegment } from '../../engines/engine-types.js';
import type { ModelDefinition } from '../../engines/model-definition.js';
import { isoAt } from '../../store/clock.js';
import type { JobRow } from '../../store/jobs-repo.js';
import { PRIVATE_DIR_MODE } from '../../store/private-files.js';
import { createPrivateLog } from '../../store/private-log.js';
import type { StoreRepos } from '../../store/store.js';
import { resumePointOf, segmentRow } from '../transcripts/transcript-segments.js';
import { holdInput } from './stored-input.js';
import { knownSpeakers } from '../transcripts/speaker-library.js';
import { guard, nowIso, type ActiveRun, type JobCore } from './job-core.js';
import type { SettleQueue } from './settle-queue.js';
import type { JobTx } from './state-machine.js';
import { collectArtifacts, settleFailed, settleSucceeded, type KeptArtifact } from './run-settlement.js';
import { createLog } from '../../common/log.js';

/** Progress below this change is not written (a chatty engine must not turn into a write storm). */
const PROGRESS_STEP = 0.01;

/** A run with its queue of writes, committed in order. */
interface Run extends ActiveRun {
  writes: Promise<void>;
  /** A local run not yet handed to the worker pool: counted in core.launching. */
  launching: boolean;
}

export interface Executor {
  launch(row: JobRow, definition: ModelDefinition): void;
  /** The row if this instance still runs it (shutdown, a lost lease or another node's recovery may have taken it). */
  stillOurs(repos: Pick<StoreRepos, 'jobs'>, jobId: string, run: ActiveRun): Promise<JobRow | undefined>;
  /** Renews the leases of the runs under way (on a timer: a third of the lease); a run whose lease was lost stops. */
  renewLeases(): Promise<void>;
  /** Writes out what the runs logged (logs/remote.log) and closes the file; called once the runs stopped. */
  close(): Promise<void>;
}

/** `wake`: asks the loop for a pass (a run ended: its worker is free). */
export function createExecutor(core: JobCore, settleQueue: SettleQueue, wake: () => void): Executor {
  const { options, store, machine, pool, active, instanceId, artifactsDir } = core;
  const { clock } = options;
  const now = (): string => nowIso(core);

  function launch(row: JobRow, definition: ModelDefinition): void {
    const run: Run = {
      controller: new AbortController(),
      remote: definition.engine === 'remote',
      abandoned: false,
      done: Promise.resolve(),
      lastProgress: row.progress,
      progressFloor: row.progress ?? 0,
      pausing: false,
      checkpointBroken: false,
      writes: Promise.resolve(),
      launching: false,
    };
    // A local run holds a worker from its launch, not from when its task is built: its model and input may first be
    // fetched from storage.
    if (!run.remote) {
      run.launching = true;
      core.launching.n++;
    }
    active.set(row.id, run);
    run.done = executeHeld(row, definition, run)
      .catch(async (error: unknown) => {
        // A bug in settling must not leave the job running forever: fail it.
        await settleFailure(row.id, run, new JobError('engine_failed', `internal error: ${String(error)}`)).catch((cause: unknown) =>
          guard(core.options.log, `settling ${row.id}`, () => Promise.reject(cause)),
        );
      })
      .finally(() => {
        handedOver(run);
        active.delete(row.id);
        wake();
      });
  }

  /** The run no longer holds a worker the pool does not know of: the pool has its task, or it ended before that. */
  function handedOver(run: Run): void {
    if (!run.launching) return;
    run.launching = false;
    core.launching.n--;
  }

  /** Queues one of the run's writes after the ones before it; a failing write does not stop the later ones. */
  function inOrder(run: Run, label: string, write: () => Promise<void>): Promise<void> {
    run.writes = run.writes.then(write).catch((error: unknown) => guard(core.options.log, label, () => Promise.reject(error)));
    return run.writes;
  }

  /**
   * The run with its model's files and its input files on this node's disk (with a bucket: fetched into this node's
   * data dir; stored-input.ts), the input held until the run ends.
   */
  async function executeHeld(row: JobRow, definition: ModelDefinition, run: Run): Promise<void> {
    let held: Awaited<ReturnType<typeof holdInput>>;
    try {
      await options.prepareModel(definition);
    } catch (error) {
      await settleFailure(row.id, run, new JobError('model_unavailable', `the files of model ${definition.id} could not be fetched from storage (${(error as Error).message})`));
      return;
    }
    try {
      held = await holdInput(options.files, JSON.parse(row.input_json) as EngineInput);
    } catch (error) {
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      const why = missing ? 'is no longer in storage' : `could not be fetched from storage (${(error as Error).message})`;
      await settleFailure(row.id, run, new JobError('engine_failed', `the job's recording ${why}`));
      return;
    }
    try {
      await execute(row, definition, run, held.input);
    } finally {
      held.release();
    }
  }

  async function execute(row: JobRow, definition: ModelDefinition, run: Run, input: EngineInput): Promise<void> {
    // A local run's folder is prepared and tidied by its worker process (engine-types.ts EngineTask.workDir), so
    // this thread does no file-system work per job; a hosted run's here, without blocking the thread.
    const workDir = join(artifactsDir, row.id);
    const base = {
      jobId: row.id,
      product: row.product,
      modelId: row.model_id,
      engineConfig: definition.engineConfig,
      params: JSON.parse(row.params_json) as Record<string, unknown>,
      input,
      workDir,
    };
    let audioOffset = 0;
    const handlers = {
      progress: (fraction: number) => void onProgress(row.id, run, fraction),
      measured: (seconds: number) => void onMeasured(row.id, run, seconds),
      audio: (bytes: Uint8Array) => {
        const chunk = { attempt: row.attempts, offset: audioOffset, bytes };
        audioOffset += bytes.length;
        for (const listener of core.audioListeners.get(row.id) ?? []) guard(core.options.log, `audio of ${row.id}`, () => listener(chunk));
      },
      segment: (segment: RecognizedSegment, fraction: number) => void onSegment(row.id, run, segment, fraction),
    };
    let output: EngineOutput;
    // A hosted run's folder is emptied (leftovers of an interrupted attempt) and made while the hosted call is under
    // way: each step costs 1-2.5 ms on a busy disk, on the path of every forwarded job. The runner waits for it
    // (task.workDirReady) before it writes there.
    let folder: Promise<unknown> = Promise.resolve();
    try {
      if (run.remote) {
        const runner = options.runners.remote;
        if (!runner) throw new JobError('model_unavailable', 'the hosted service is not configured');
        const workDirReady = rm(workDir, { recursive: true, force: true }).then(() => mkdir(workDir, { recursive: true, mode: PRIVATE_DIR_MODE }).then(() => undefined));
        folder = workDirReady.catch(() => undefined); // the runner sees a failure; this copy only orders the tidy-up
        output = await withCancelGrace(
          runner.run(
            { ...base, accountId: row.account_id, definition, attempt: row.attempts, workDirReady },
            { signal: run.controller.signal, ...handlers, log: createLog((line) => remoteLog(row.id, line.message)) },
          ),
          run.controller.signal,
        );
      } else {
        // Continue after the last committed segment (none: from the start). Until the pool has the task, the run
        // counts as holding a worker (core.launching, from its launch).
        // Workers run the spec's products only; extension jobs (transcript-ai) are the plug-in runner's.
        const product = base.product;
        if (!isProduct(product)) throw new JobError('model_unavailable', `${product} jobs are not run by an engine worker`);
        const task: EngineTask = {
          ...base,
          product,
          engine: definition.engine as EngineKind,
          resumeAfter: resumePointOf(await store.repos.segments.last(row.id)),
          // The account's speaker library as it is now, for a diarizing transcription (speaker-library.ts).
          ...(product === 'speech-to-text' && base.params.speaker_diarization === true ? { knownSpeakers: await knownSpeakers(store.repos, row.account_id) } : {}),
          ...(core.audioListeners.has(row.id) ? { streamAudio: true } : {}),
        };
        handedOver(run);
        output = await pool.run(task, handlers, { signal: run.controller.signal, timeoutMs: options.runTimeoutSeconds * 1000 });
      }
    } catch (error) {
      await run.writes;
      await settleFailure(row.id, run, error);
      return;
    }
    // Every checkpoint the engine sent is committed before the success is.
    await run.writes;
    // Files are moved into the job's folder first, outside any transaction (a transaction awaits only the store), and
    // only for a run still ours (checked again when it is settled).
    let files: KeptArtifact[] = [];
    if (output.artifacts.length > 0) {
      if (!(await stillOurs(store.repos, row.id, run))) return;
      try {
        files = await collectArtifacts(core, output, workDir);
      } catch (error) {
        await settleFailure(row.id, run, new JobError('engine_failed', `the engine's output file could not be kept: ${String(error)}`));
        return;
      }
    }
    await settleQueue.settle((tx) => settleSuccess(tx, row.id, run, output, definition, files));
    if (run.remote && output.artifacts.length === 0) {
      // Nothing to keep: do not leave an empty folder per job (not empty: scratch files, harmless).
      await folder;
      await rmdir(workDir).catch(() => undefined);
    }
  }

  // Forwarded jobs' log: written by one asynchronous appender, never on a job's path; a failure is only a warning.
  const remoteLogFile = createPrivateLog(join(options.dataDir, 'logs', 'remote.log'), (error) =>
    guard(core.options.log, 'remote log', () => {
      throw error;
    }),
  );
  function remoteLog(jobId: string, message: string): void {
    remoteLogFile.append(`[${now()}] ${jobId}: ${message}`);
  }

  /** Remote runners that ignore their signal are given up on after the cancel grace. */
  function withCancelGrace<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const onAbort = (): void => {
        timer = setTimeout(() => reject(jobCancelled()), options.cancelGraceMs);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      promise.then(resolve, reject).finally(() => {
        signal.removeEventListener('abort', onAbort);
        if (timer) clearTimeout(timer);
      });
    });
  }

  async function stillOurs(repos: Pick<StoreRepos, 'jobs'>, jobId: string, run: ActiveRun): Promise<JobRow | undefined> {
    if (run.abandoned) return undefined;
    const row = await repos.jobs.get(jobId);
    return row && row.status === 'running' && row.claimed_by === instanceId ? row : undefined;
  }

  function onProgress(jobId: string, run: Run, fraction: number): Promise<void> {
    if (!Number.isFinite(fraction)) return Promise.resolve();
    const progress = Math.min(1, Math.max(run.progressFloor, fraction));
    if (run.lastProgress !== null && Math.abs(progress - run.lastProgress) < PROGRESS_STEP && progress < 1) return Promise.resolve();
    run.lastProgress = progress;
    return inOrder(run, `progress of ${jobId}`, () =>
      machine.tx(async (tx) => {
        const row = await stillOurs(tx.repos, jobId, run);
        if (row) await tx.patch(row, { progress });
      }),
    );
  }

  /**
   * A checkpoint: the segment and the job's progress in one transaction. A segment that cannot be committed (not the
   * next index, a broken database) stops the run; the job resumes from its last committed segment, so nothing is
   * lost or committed twice. A run this instance no longer owns commits nothing.
   */
  function onSegment(jobId: string, run: Run, segment: RecognizedSegment, fraction: number): Promise<void> {
    return inOrder(run, `checkpoint of ${jobId}`, async () => {
      if (run.checkpointBroken || run.abandoned) return;
      try {
        await machine.tx(async (tx) => {
          const row = await stillOurs(tx.repos, jobId, run);
          if (!row) return;
          if (!(await tx.repos.segments.append(segmentRow(jobId, segment, now())))) {
            throw new Error(`segment ${segment.index} is not the next one (${await tx.repos.segments.count(jobId)} committed)`);
          }
          const progress = Number.isFinite(fraction) ? Math.min(1, Math.max(run.progressFloor, fraction)) : row.progress;
          run.lastProgress = progress;
          await tx.patch(row, { progress });
        });
      } catch (error) {
        run.checkpointBroken = true;
        core.options.log.info(`job engine: the checkpoint of ${jobId} failed, the job resumes from its last one: ${error instanceof Error ? error.message : String(error)}`);
        run.controller.abort();
      }
    });
  }

  function onMeasured(jobId: string, run: Run, seconds: number): Promise<void> {
    if (!Number.isFinite(seconds) || seconds < 0) return Promise.resolve();
    return inOrder(run, `duration of ${jobId}`, () =>
      machine.tx(async (tx) => {
        const row = await stillOurs(tx.repos, jobId, run);
        if (row) await tx.patch(row, { duration_seconds: durationString(seconds) });
      }),
    );
  }

  async function renewLeases(): Promise<void> {
    const runs = [...active.entries()].filter(([, run]) => !run.abandoned);
    if (runs.length === 0) return;
    const held = new Set(await store.repos.jobs.renewLeases(instanceId, runs.map(([id]) => id), isoAt(clock, options.leaseSeconds * 1000)));
    for (const [id, run] of runs) {
      if (held.has(id) || run.abandoned) continue;
      // Its lease lapsed and the job went back to the queue (or was taken elsewhere): this run's work is not wanted.
      core.options.log.info(`job engine: the lease on ${id} was lost; its run here is stopped (the job continues where it is claimed next)`);
      run.abandoned = true;
      run.controller.abort();
    }
  }

  async function settleSuccess(tx: JobTx, jobId: string, run: ActiveRun, output: EngineOutput, definition: ModelDefinition, files: readonly KeptArtifact[]): Promise<void> {
    const row = await stillOurs(tx.repos, jobId, run);
    if (row) await settleSucceeded(core, tx, row, output, definition, files);
  }

  function settleFailure(jobId: string, run: ActiveRun, error: unknown): Promise<void> {
    return machine.tx(async (tx) => {
      const row = await stillOurs(tx.repos, jobId, run);
      if (row) await settleFailed(tx, row, run, error);
    });
  }

  return { launch, stillOurs, renewLeases, close: () => remoteLogFile.close() };
}
