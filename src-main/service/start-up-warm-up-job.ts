/**
 * Real text-to-speech jobs through the job path before the first person's job, on a private job engine that no person
 * can see. The first job after start cost the service's thread 6–10 ms more than a warm one (10–16 ms in round 4's
 * profile) in the functions that write a job's rows: creating the job, the scheduler's claim, launching the run,
 * settling it and recording the result, each slow the first times it runs, until V8 has compiled it and learnt its
 * types. Those functions write rows, so they cannot be run on the person's store without leaving something behind.
 *
 * So a second job engine (scheduler, executor, intake, state machine, repositories) is built on a private in-memory
 * SQLite store (the same migrations) and runs a job (WARM_UP_JOB_ROUNDS) of the built-in voice through the same code —
 * create, claim, run on the service's own worker processes, settle, view — into a private folder of the data dir
 * (`warm-up/`, 0700) that is removed afterwards, and removed first if a process killed during an earlier warm-up left
 * it there. V8 keeps bytecode, type feedback and optimised code per function (a closure made at the same
 * place in the same module shares them), so the person's first job runs code that is already warm. Nothing reaches
 * the person's store, files, ledger, events, usage or logs: every row is in the private store, every file in the
 * private folder, its events go to the private engine's listeners (none).
 *
 * A person's job always wins: the warm-up does not start while the service has any job queued or running or a worker
 * busy; it stops (cancelling its job, which frees the worker at once) as soon as a job of the service changes; and
 * when its run has freed the worker, the service's scheduler is asked for a pass at once (a job that came meanwhile
 * would otherwise wait for the once-a-second pass). It stops when the service closes, and after
 * WARM_UP_JOB_TIMEOUT_MS in any case; it never rejects.
 *
 * Cost: about 0.4 s of one worker's time once the workers are ready (the job and the waits after it); +0.02 MB of the
 * service's heap after a full GC (21.78 → 21.80 MB, three starts), resident memory unchanged within its ±5 MB spread.
 */
import { rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { pause } from '../common/pause.js';
import type { ModelDefinition } from '../engines/model-definition.js';
import { createJobService, type JobEngine } from '../jobs/job-service.js';
import { openDatabase } from '../store/database.js';
import { ensurePrivateDir } from '../store/private-files.js';
import { createRepositories } from '../store/repositories.js';

/**
 * Jobs the warm-up runs (default 1): the first run of the service's job path is what costs (compiling, learning
 * types). More made the worker's first job dearer (six starts each at load 4.5: worker CPU of the person's first
 * job 25.1 ms against a warm 17.2 after three warm-up jobs, 16.6 against 18.5 after one), V8 optimising the worker's
 * job path on the warm-up's runs alone.
 */
export const WARM_UP_JOB_ROUNDS = 1;
/** The longest the whole warm-up may take before it stops (default 10 s). */
export const WARM_UP_JOB_TIMEOUT_MS = 10_000;
/** What the warm-up jobs say (one sentence, like a short request). */
export const WARM_UP_JOB_TEXT = 'The service is getting ready to speak.';
/**
 * After each job, the warm-up waits until this process is quiet: V8 optimises what became hot on helper threads, in
 * the service and in the worker, after the job that made it hot, and that work would otherwise fall on the next job
 * (on a 2-core machine, on the core the other process needs): without the wait the worker's first job after the
 * warm-up cost 40–52 ms of CPU against a warm 14–23 (bench/tts-rtf.ts, tts-job). Quiet: less than QUIET_CPU_MS of this
 * process's CPU in a QUIET_WINDOW_MS window while its thread sleeps (the window also gives the worker that time);
 * given up after QUIET_MAX_MS.
 */
const QUIET_WINDOW_MS = 25;
const QUIET_CPU_MS = 2;
const QUIET_MAX_MS = 500;
/**
 * After the last job, the worker is given this long (default 300 ms) to finish what V8 compiles on its own helper
 * threads: with only the quiet wait above, the worker's first job right after the warm-up cost 13–44 ms of CPU against
 * a warm 13–19 (five starts); with a second between them, 12–27 ms.
 */
const WORKER_SETTLE_MS = 300;
/** How long a cancelled warm-up job may take to end before the warm-up gives up waiting for it. */
const CANCEL_WAIT_MS = 5_000;
const PRODUCT = 'text-to-speech';

/** Why the warm-up stopped before its last round, or null when it ran them all. */
export type WarmUpJobStop = 'real-job' | 'closing' | 'timed-out' | 'unavailable' | 'failed';

export interface WarmUpJobResult {
  /** Warm-up jobs that succeeded. */
  jobs: number;
  stopped: WarmUpJobStop | null;
  /** What went wrong ('failed', 'unavailable'), for diagnostics. */
  detail: string | null;
  /** How long it took, in ms. */
  ms: number;
  /** The private folder its jobs wrote to (removed before it resolves); null when it did not start. */
  folder: string | null;
}

export interface WarmUpJobOptions {
  /** The service's job engine: its workers are borrowed, its jobs always go first. */
  service: JobEngine;
  /** The catalogue's definition of a model, as the service's job engine resolves it. */
  resolveModel(modelId: string): ModelDefinition | undefined;
  /** The model the jobs use (the built-in voice). */
  modelId: string;
  /** The params of a request that sends none (validated, defaults applied), as the HTTP route would pass them. */
  params(definition: ModelDefinition): Record<string, unknown>;
  /**
   * The folder the warm-up jobs write to, which the warm-up owns: emptied before it starts (what an earlier warm-up
   * killed mid-way left), created 0700, removed when it ends. createService passes `<data dir>/warm-up`.
   */
  folder: string;
  /** Aborted when the service closes. */
  signal: AbortSignal;
  rounds?: number;
  timeoutMs?: number;
}

/** Resolves once the process used less than QUIET_CPU_MS in a QUIET_WINDOW_MS window, or the signal is aborted. */
async function quiet(signal: AbortSignal): Promise<void> {
  const until = performance.now() + QUIET_MAX_MS;
  while (!signal.aborted && performance.now() < until) {
    const before = process.cpuUsage();
    await new Promise<void>((resolve) => setTimeout(resolve, QUIET_WINDOW_MS));
    const used = process.cpuUsage(before);
    if ((used.user + used.system) / 1000 < QUIET_CPU_MS) return;
  }
}

/** Whether the service has work of its own (a job queued or running, a worker busy): the warm-up then stays out. */
function serviceBusy(service: JobEngine): boolean {
  const stats = service.workerStats();
  if (stats.idle < stats.size) return true;
  const queue = service.queueSummary();
  return queue.queued + queue.running + queue.pending > 0;
}

/** Runs the warm-up jobs and resolves with how it went; never rejects. */
export function warmUpJobPath(options: WarmUpJobOptions): Promise<WarmUpJobResult> {
  const began = performance.now();
  return runWarmUp(options, began).catch((error: unknown) => ({
    jobs: 0,
    stopped: 'failed' as const,
    detail: error instanceof Error ? error.message : String(error),
    ms: Math.round(performance.now() - began),
    folder: null,
  }));
}

async function runWarmUp(options: WarmUpJobOptions, began: number): Promise<WarmUpJobResult> {
  let folder: string | null = null;
  const end = (jobs: number, stopped: WarmUpJobStop | null, detail: string | null = null): WarmUpJobResult => ({
    jobs,
    stopped,
    detail,
    ms: Math.round(performance.now() - began),
    folder,
  });
  if (options.signal.aborted) return end(0, 'closing');
  // What a warm-up killed mid-way left behind goes first, whether or not this one runs.
  rmSync(options.folder, { recursive: true, force: true });
  if (serviceBusy(options.service)) return end(0, 'real-job');
  const definition = options.resolveModel(options.modelId);
  if (!definition || definition.status !== 'available' || definition.engine === 'remote') return end(0, 'unavailable', `model ${options.modelId}`);

  const stop = new AbortController();
  const halt = (why: WarmUpJobStop) => (): void => {
    if (!stop.signal.aborted) stop.abort(why);
  };
  const onServiceJob = halt('real-job');
  const onClosing = halt('closing');
  const timeoutMs = options.timeoutMs ?? WARM_UP_JOB_TIMEOUT_MS;
  const timer = setTimeout(halt('timed-out'), timeoutMs);
  options.service.events.on('job-changed', onServiceJob);
  options.service.events.on('batch-changed', onServiceJob);
  options.signal.addEventListener('abort', onClosing, { once: true });

  let engine: JobEngine | undefined;
  let db: ReturnType<typeof openDatabase> | undefined;
  let done = 0;
  let failure: string | null = null;
  try {
    const dir = options.folder;
    folder = dir;
    ensurePrivateDir(dir);
    db = openDatabase(':memory:');
    const repos = createRepositories(db);
    const accountId = repos.accounts.ensureAccount('warm-up').id;
    engine = createJobService({
      repos,
      dataDir: dir,
      resolveModel: options.resolveModel,
      pool: options.service.pool,
      workers: options.service.pool.size,
    });
    engine.start();
    const params = options.params(definition);
    const rounds = options.rounds ?? WARM_UP_JOB_ROUNDS;
    for (let round = 0; round < rounds; round++) {
      if (stop.signal.aborted) break;
      if (serviceBusy(options.service)) {
        stop.abort('real-job');
        break;
      }
      const { job } = engine.createJob({ accountId, product: PRODUCT, modelId: definition.id, name: null, language: null, params, input: { text: WARM_UP_JOB_TEXT } });
      await engine.waitForTerminal(job.id, timeoutMs, stop.signal);
      if (stop.signal.aborted) {
        // The worker goes back to the service's job at once: the run is cancelled, then waited for (its rows and
        // files must not be touched by a run that is still going when they are removed).
        engine.cancelJob(accountId, PRODUCT, job.id);
        await engine.waitForTerminal(job.id, CANCEL_WAIT_MS);
      }
      options.service.kick();
      const view = engine.getJob(accountId, PRODUCT, job.id);
      if (view?.status !== 'succeeded') {
        if (!stop.signal.aborted) failure = `${view?.status ?? 'missing'}: ${view?.error_code ?? ''} ${view?.error_message ?? ''}`.trim();
        break;
      }
      done++;
      if (round + 1 < rounds) await quiet(stop.signal);
    }
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
    options.service.events.off('job-changed', onServiceJob);
    options.service.events.off('batch-changed', onServiceJob);
    options.signal.removeEventListener('abort', onClosing);
    // Waits for a run still going (a stuck one is given up after the grace: the pool's own cancel kills it).
    await engine?.shutdown(CANCEL_WAIT_MS).catch(() => undefined);
    db?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
    options.service.kick();
  }
  if (failure !== null) return end(done, 'failed', failure);
  if (stop.signal.aborted) return end(done, stop.signal.reason as WarmUpJobStop);
  // Once its store and folder are gone (a kill now leaves nothing behind), the warm-up waits for the compiles its
  // job started: the service's (quiet) and the worker's, whose helper threads are not visible from here (pause).
  await quiet(options.signal);
  await pause(WORKER_SETTLE_MS, options.signal);
  return end(done, options.signal.aborted ? 'closing' : null);
}
