/**
 * What the parts of the job engine share: options, repositories, the state machine, the worker pool and the runs in
 * progress. Built once by createJobService; the scheduler, executor, intake and maintenance modules work on it.
 */
import type { EngineKind } from '../engines/engine-types.js';
import type { WorkerPool } from '../engines/worker/worker-pool.js';
import { isoAt } from '../store/clock.js';
import type { Repositories } from '../store/repositories.js';
import type { AudioChunk } from './job-service-types.js';
import type { ResolvedOptions } from './job-service-options.js';
import type { SpendingCap } from './spending-cap.js';
import type { StateMachine } from './state-machine.js';
import type { Views } from './views.js';

export interface ActiveRun {
  controller: AbortController;
  remote: boolean;
  /** Shutdown requeued the job: whatever the run returns is ignored. */
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
  repos: Repositories;
  views: Views;
  machine: StateMachine;
  pool: WorkerPool;
  /** host:pid:random, written to jobs.claimed_by. */
  instanceId: string;
  /** dataDir/artifacts: one folder per job. */
  artifactsDir: string;
  /** Runs of this instance, by job id. */
  active: Map<string, ActiveRun>;
  /** Asks for a scheduling pass soon (coalesced). */
  kick(): void;
  /**
   * Asks for a pass on the next turn that settles the runs that finished (Executor.settleFinished), with scheduling
   * when the engine is running; coalesced with kick(): one pass settles, claims and marks whatever is due.
   */
  settleSoon(): void;
  /** The monthly cap on hosted spending: checked (and the quote reserved) before hosted work is forwarded. */
  spendingCap: SpendingCap;
  /** Who listens to which job's audio as it is made (JobService.listenToAudio). */
  audioListeners: Map<string, Set<(chunk: AudioChunk) => void>>;
}

/** Engine kinds served by worker processes (everything but 'remote'). */
export const LOCAL_ENGINES: ReadonlySet<string> = new Set<EngineKind>(['espeak', 'sherpa-tts', 'sherpa-asr', 'pocketsphinx', 'rnnoise', 'gtcrn', 'test']);

export function nowIso(core: JobCore): string {
  return isoAt(core.options.clock);
}

/**
 * Timer- and event-driven work must never throw into the event loop (that would take the service down): a busy
 * or broken database is reported on stderr and the next tick tries again; interrupted jobs are recovered on start.
 */
export function guard(label: string, fn: () => void): void {
  try {
    fn();
  } catch (error) {
    process.emitWarning(`job engine: ${label} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
