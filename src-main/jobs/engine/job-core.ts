/**
 * What the parts of the job engine share: options, the store, the state machine, the worker pool and the runs in
 * progress. Built once by createJobService; the parts (intake, claims, runs, loop, maintenance, queries) each take
 * what they need from it and talk to each other only through the narrow interfaces they are given — never back
 * into the code that wires them.
 */
import type { EngineKind } from '../../engines/engine-types.js';
import type { WorkerPool } from '../../engines/worker/worker-pool.js';
import { isoAt } from '../../store/clock.js';
import type { Store } from '../../store/store.js';
import type { SpendingCap } from '../money/spending-cap.js';
import type { AudioChunk } from './job-service-types.js';
import type { ResolvedOptions } from './job-service-options.js';
import type { StateMachine } from './state-machine.js';
import type { Views } from './views.js';
import type { Log } from '../../common/log.js';

export interface ActiveRun {
  controller: AbortController;
  remote: boolean;
  /** Shutdown requeued the job (or its lease was lost): whatever the run returns is ignored. */
  abandoned: boolean;
  done: Promise<void>;
  lastProgress: number | null;
  /** Progress the job had when this run started (kept from its checkpoint): reports below it are raised to it. */
  progressFloor: number;
  /** Aborted to pause: a `cancelled` ending puts the job back in the queue instead. */
  pausing: boolean;
  /** A segment could not be committed: the run is stopped and the job resumes from its last good checkpoint. */
  checkpointBroken: boolean;
}

export interface JobCore {
  options: ResolvedOptions;
  store: Store;
  views: Views;
  machine: StateMachine;
  pool: WorkerPool;
  /** host:pid:random, written to jobs.claimed_by. */
  instanceId: string;
  /** dataDir/artifacts: one folder per job. */
  artifactsDir: string;
  /** Runs of this instance, by job id. */
  active: Map<string, ActiveRun>;
  /**
   * Local runs launched but not yet handed to the worker pool (their model and input fetched from storage, their
   * resume point read): they hold a worker the pool does not know is taken. Those are awaits, on PostgreSQL and with
   * a bucket long enough for the next pass to run; the scheduler counts these as taken so it never claims a job no
   * worker can start.
   */
  launching: { n: number };
  /** The monthly cap on hosted spending: checked (and the quote reserved) before hosted work is forwarded. */
  spendingCap: SpendingCap;
  /** Who listens to which job's audio as it is made (JobService.listenToAudio). */
  audioListeners: Map<string, Set<(chunk: AudioChunk) => void>>;
}

/** Engine kinds served by worker processes (everything but 'remote'). */
export const LOCAL_ENGINES: ReadonlySet<string> = new Set<EngineKind>(['espeak', 'sherpa-tts', 'sherpa-asr', 'pocketsphinx', 'rnnoise', 'gtcrn', 'dpdfnet', 'sherpa-separation', 'sherpa-cloning', 'test']);

export function nowIso(core: JobCore): string {
  return isoAt(core.options.clock);
}

export { CANCELLED_MESSAGE } from '../../common/errors.js';

/**
 * Timer- and event-driven work must never throw into the event loop (that would take the service down): a busy
 * or broken database is reported as a warning and the next tick tries again; interrupted jobs are recovered on start.
 */
export function guard(log: Log, label: string, fn: () => unknown): void {
  const report = (error: unknown): void => log.info(`job engine: ${label} failed: ${error instanceof Error ? error.message : String(error)}`);
  try {
    const result = fn();
    if (result instanceof Promise) result.catch(report);
  } catch (error) {
    report(error);
  }
}
