/**
 * Runs a claimed job on the worker pool (on-device engines) or the remote runner, relays progress and the measured
 * duration, commits each recognised segment with the progress it brings (one transaction: a checkpoint), and settles
 * the outcome: success with artifacts and charges in one transaction (a transcription's result built from its
 * committed segments), or the right failure (crash retried once, cancellation, pause, timeout, waiting again, engine
 * error). A run resumes after the job's last committed segment, so committed work is never done twice.
 */
import { copyFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { mkdir, rm, rmdir } from 'node:fs/promises';
import { basename, isAbsolute, join, relative } from 'node:path';
import { JobError, PAUSED, WAITING_CODES } from '../common/errors.js';
import { durationString } from '../common/duration.js';
import type { EngineInput, EngineKind, EngineOutput, EngineTask, RecognizedSegment } from '../engines/engine-types.js';
import type { ModelDefinition } from '../engines/model-definition.js';
import { WorkerCrashError } from '../engines/worker/worker-pool.js';
import { isoAt } from '../store/clock.js';
import { newId, newToken } from '../store/ids.js';
import type { JobRow } from '../store/jobs-repo.js';
import { PRIVATE_DIR_MODE } from '../store/private-files.js';
import { createPrivateLog } from '../store/private-log.js';
import { chargeJob, storedSnapshot } from './billing.js';
import { guard, nowIso, type ActiveRun, type JobCore } from './job-core.js';
import { PAUSED_MESSAGE } from './job-pause.js';
import { resumePointOf, rowsFromResult, segmentRow, transcriptFromRows } from './transcript-segments.js';
import { recordOriginal } from './transcripts.js';

/** A worker crash is retried once: a job whose run crashed with attempts ≥ this fails `engine_crashed`. */
export const MAX_CRASH_ATTEMPTS = 2;
/** Progress below this change is not written (a chatty engine must not turn into a write storm). */
const PROGRESS_STEP = 0.01;

export interface Executor {
  launch(row: JobRow, definition: ModelDefinition): void;
  /**
   * Inside a transaction: settles the runs that finished since the last call, each in its own savepoint (one that
   * fails is rolled back alone and its run fails). Returns what to call once that transaction has committed (null)
   * or failed (the error): only then do the runs go on (a change is never reported before it is committed).
   */
  settleFinished(): (error: unknown) => void;
  /** Whether runs finished since the last settleFinished() (a pass with none to settle may open no transaction). */
  anyFinished(): boolean;
  /** The row if this instance still runs it (shutdown or another instance's recovery may have taken it back). */
  stillOurs(jobId: string, run: ActiveRun): JobRow | undefined;
  /** Writes out what the runs logged (logs/remote.log) and closes the file; called once the runs stopped. */
  close(): Promise<void>;
}

export function createExecutor(core: JobCore): Executor {
  const { options, repos, machine, pool, active, instanceId, artifactsDir } = core;
  const { clock } = options;
  const now = (): string => nowIso(core);
  const kick = (): void => core.kick();
  /**
   * Runs that finished, waiting to be settled together: several jobs that end in the same turn of the event loop
   * share one commit, with the claims of the jobs that take their workers (job-service.ts settleSoon).
   */
  let finished: { settle: () => void; resolve: () => void; reject: (error: unknown) => void }[] = [];

  function settleSoon(settle: () => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      finished.push({ settle, resolve, reject });
      if (finished.length === 1) core.settleSoon();
    });
  }

  function settleFinished(): (error: unknown) => void {
    const batch = finished;
    finished = [];
    const failed = new Map<number, unknown>();
    batch.forEach((run, index) => {
      try {
        // Each settles in its own savepoint (settleSuccess / settleFailure write only inside machine.tx, nested
        // here), so one that throws is rolled back alone: no second savepoint around it.
        run.settle();
      } catch (error) {
        failed.set(index, error);
      }
    });
    return (error) => {
      batch.forEach((run, index) => {
        const cause = error ?? failed.get(index);
        if (cause === undefined || cause === null) run.resolve();
        else run.reject(cause);
      });
    };
  }

  function launch(row: JobRow, definition: ModelDefinition): void {
    const run: ActiveRun = {
      controller: new AbortController(),
      remote: definition.engine === 'remote',
      abandoned: false,
      done: Promise.resolve(),
      lastProgress: row.progress,
      progressFloor: row.progress ?? 0,
      pausing: false,
      checkpointBroken: false,
    };
    active.set(row.id, run);
    run.done = execute(row, definition, run)
      .catch((error: unknown) => {
        // A bug in settling must not leave the job running forever: fail it.
        guard(`settling ${row.id}`, () =>
          settleFailure(row.id, run, new JobError('engine_failed', `internal error: ${String(error)}`), definition),
        );
      })
      .finally(() => {
        active.delete(row.id);
        kick();
      });
  }

  async function execute(row: JobRow, definition: ModelDefinition, run: ActiveRun): Promise<void> {
    // A local run's folder is prepared and tidied by its worker process (engine-types.ts EngineTask.workDir), so
    // this thread does no file-system work per job; a hosted run's here, without blocking the thread.
    const workDir = join(artifactsDir, row.id);
    const base = {
      jobId: row.id,
      product: row.product,
      modelId: row.model_id,
      engineConfig: definition.engineConfig,
      params: JSON.parse(row.params_json) as Record<string, unknown>,
      input: JSON.parse(row.input_json) as EngineInput,
      workDir,
    };
    let audioOffset = 0;
    const handlers = {
      progress: (fraction: number) => guard(`progress of ${row.id}`, () => onProgress(row.id, run, fraction)),
      measured: (seconds: number) => guard(`duration of ${row.id}`, () => onMeasured(row.id, run, seconds)),
      audio: (bytes: Uint8Array) => {
        const chunk = { attempt: row.attempts, offset: audioOffset, bytes };
        audioOffset += bytes.length;
        for (const listener of core.audioListeners.get(row.id) ?? []) guard(`audio of ${row.id}`, () => listener(chunk));
      },
      segment: (segment: RecognizedSegment, fraction: number) => onSegment(row.id, run, segment, fraction),
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
            { signal: run.controller.signal, ...handlers, log: (message) => remoteLog(row.id, message) },
          ),
          run.controller.signal,
        );
      } else {
        // Continue after the last committed segment (none: from the start).
        const task: EngineTask = {
          ...base,
          engine: definition.engine as EngineKind,
          resumeAfter: resumePointOf(repos.segments.last(row.id)),
          ...(core.audioListeners.has(row.id) ? { streamAudio: true } : {}),
        };
        output = await pool.run(task, handlers, { signal: run.controller.signal, timeoutMs: options.runTimeoutSeconds * 1000 });
      }
    } catch (error) {
      settleFailure(row.id, run, error, definition);
      return;
    }
    await settleSoon(() => settleSuccess(row.id, run, output, definition, workDir));
    if (run.remote && output.artifacts.length === 0) {
      // Nothing to keep: do not leave an empty folder per job (not empty: scratch files, harmless).
      await folder;
      await rmdir(workDir).catch(() => undefined);
    }
  }

  // Forwarded jobs' log: written by one asynchronous appender, never on a job's path; a failure is only a warning.
  const remoteLogFile = createPrivateLog(join(options.dataDir, 'logs', 'remote.log'), (error) =>
    guard('remote log', () => {
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
        timer = setTimeout(() => reject(new JobError('cancelled', 'cancelled')), options.cancelGraceMs);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      promise.then(resolve, reject).finally(() => {
        signal.removeEventListener('abort', onAbort);
        if (timer) clearTimeout(timer);
      });
    });
  }

  function stillOurs(jobId: string, run: ActiveRun): JobRow | undefined {
    if (run.abandoned) return undefined;
    const row = repos.jobs.get(jobId);
    return row && row.status === 'running' && row.claimed_by === instanceId ? row : undefined;
  }

  function onProgress(jobId: string, run: ActiveRun, fraction: number): void {
    if (!Number.isFinite(fraction)) return;
    const progress = Math.min(1, Math.max(run.progressFloor, fraction));
    if (run.lastProgress !== null && Math.abs(progress - run.lastProgress) < PROGRESS_STEP && progress < 1) return;
    run.lastProgress = progress;
    machine.tx(() => {
      const row = stillOurs(jobId, run);
      if (row) machine.patch(row, { progress });
    });
  }

  /**
   * A checkpoint: the segment and the job's progress in one transaction. A segment that cannot be committed (not the
   * next index, a broken database) stops the run; the job resumes from its last committed segment, so nothing is
   * lost or committed twice. A run this instance no longer owns commits nothing.
   */
  function onSegment(jobId: string, run: ActiveRun, segment: RecognizedSegment, fraction: number): void {
    if (run.checkpointBroken || run.abandoned) return;
    try {
      machine.tx(() => {
        const row = stillOurs(jobId, run);
        if (!row) return;
        if (!repos.segments.append(segmentRow(jobId, segment, now()))) {
          throw new Error(`segment ${segment.index} is not the next one (${repos.segments.count(jobId)} committed)`);
        }
        const progress = Number.isFinite(fraction) ? Math.min(1, Math.max(run.progressFloor, fraction)) : row.progress;
        run.lastProgress = progress;
        machine.patch(row, { progress });
      });
    } catch (error) {
      run.checkpointBroken = true;
      process.emitWarning(`job engine: the checkpoint of ${jobId} failed, the job resumes from its last one: ${error instanceof Error ? error.message : String(error)}`);
      run.controller.abort();
    }
  }

  function onMeasured(jobId: string, run: ActiveRun, seconds: number): void {
    if (!Number.isFinite(seconds) || seconds < 0) return;
    machine.tx(() => {
      const row = stillOurs(jobId, run);
      if (row) machine.patch(row, { duration_seconds: durationString(seconds) });
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
    // Files are moved into the job's folder only for a run still ours (checked again in the transaction).
    if (output.artifacts.length > 0 && !stillOurs(jobId, run)) return;
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
      let result: EngineOutput['result'] = output.result ?? {};
      // Revision 0 of the transcript (transcripts.ts) keeps words and speakers whatever response_format asked for.
      let original: EngineOutput['result'] | null = row.product === 'speech-to-text' ? result : null;
      if (output.transcript) {
        const rows = repos.segments.all(jobId);
        if (rows.length !== output.transcript.segmentCount) {
          // Segments the engine sent are missing (a commit failed): run again from the last one committed.
          process.emitWarning(`job engine: ${jobId} finished with ${rows.length} of ${output.transcript.segmentCount} segments committed; resuming it`);
          machine.transition(row, 'queued', { attempts: Math.max(0, row.attempts - 1) });
          return;
        }
        result = transcriptFromRows(rows, output.transcript);
        const detailed = { ...output.transcript.options, responseFormat: 'verbose_json' as const, granularity: 'word' as const };
        original = transcriptFromRows(rows, { ...output.transcript, options: detailed });
      } else if (row.product === 'speech-to-text' && repos.segments.count(jobId) === 0) {
        for (const segment of rowsFromResult(jobId, result, at)) repos.segments.append(segment);
      }
      for (const { path, bytes, file } of files) {
        repos.artifacts.insert({
          id: newId('art', clock().getTime()),
          job_id: jobId,
          token: newToken(),
          file_name: basename(path),
          path,
          content_type: file.contentType,
          bytes,
          duration_seconds: file.durationSeconds === null ? null : durationString(file.durationSeconds),
          sample_rate: file.sampleRate,
          channels: file.channels,
          created_at: at,
          expires_at: isoAt(clock, options.artifactTtlSeconds * 1000),
          deleted_at: null,
        });
      }
      // Billed from the value the job shows (3 decimals), so the bill can be recomputed from duration_seconds.
      const shown = durationString(output.durationSeconds);
      const done = machine.transition(row, 'succeeded', {
        result_json: JSON.stringify(result),
        duration_seconds: shown,
      });
      // Charged at the price recorded when the job was accepted (jobs of earlier builds: the catalogue's price now).
      chargeJob(repos.ledger, done, storedSnapshot(done.price_json, () => definition), Number(shown), at);
      if (original) recordOriginal(repos, done, original, at);
    });
  }

  function settleFailure(jobId: string, run: ActiveRun, error: unknown, _definition: ModelDefinition): void {
    machine.tx(() => {
      const row = stillOurs(jobId, run);
      if (!row) return;
      const code = error instanceof JobError ? String(error.code) : null;
      // A job asked to pause waits in the queue with its checkpoint instead of whatever else it would have done.
      const paused = row.pause_requested ? { error_code: PAUSED, error_message: PAUSED_MESSAGE } : {};
      // Not the job's fault: the run does not count as an attempt.
      const requeue = (patch: Parameters<typeof machine.transition>[2] = {}): void =>
        void machine.transition(row, 'queued', { attempts: Math.max(0, row.attempts - 1), ...patch, ...paused });
      if (row.cancel_requested) {
        machine.transition(row, 'cancelled', { error_code: 'cancelled', error_message: 'The job was cancelled.' });
      } else if (run.checkpointBroken) {
        requeue(); // stopped because a segment could not be committed: continue from the last one that was
      } else if (code === 'cancelled' && (run.pausing || row.pause_requested)) {
        requeue(); // paused (or resumed again before the run stopped: then it is simply next in line)
      } else if (code === 'cancelled') {
        machine.transition(row, 'cancelled', { error_code: 'cancelled', error_message: 'The job was cancelled.' });
      } else if (error instanceof WorkerCrashError) {
        if (row.attempts < MAX_CRASH_ATTEMPTS) machine.transition(row, 'queued', paused);
        else machine.transition(row, 'failed', { error_code: 'engine_crashed', error_message: `The engine crashed: ${error.message} (attempt ${row.attempts}).` });
      } else if (code && (WAITING_CODES as readonly string[]).includes(code)) {
        requeue({ error_code: code, error_message: (error as Error).message });
      } else if (error instanceof JobError) {
        machine.transition(row, 'failed', { error_code: String(error.code), error_message: error.message });
      } else {
        const message = error instanceof Error ? error.message : String(error);
        machine.transition(row, 'failed', { error_code: run.remote ? 'remote_failed' : 'engine_failed', error_message: message });
      }
    });
  }

  return { launch, settleFinished, anyFinished: () => finished.length > 0, stillOurs, close: () => remoteLogFile.close() };
}
