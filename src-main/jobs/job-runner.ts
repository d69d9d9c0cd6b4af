/**
 * Pluggable runners for models that no local worker serves. The job engine dispatches by definition.engine:
 * on-device kinds go to the worker pool, `'remote'` goes to the registered remote JobRunner (hosted forwarding,
 * written by the remote provider). Without one, remote models fail `model_unavailable`.
 */
import type { WaitingCode } from '../common/errors.js';
import type { EngineContext, EngineOutput, EngineTask } from '../engines/engine-types.js';
import type { ModelDefinition } from '../engines/model-definition.js';

export interface RunnerTask extends Omit<EngineTask, 'engine'> {
  accountId: string;
  definition: ModelDefinition;
  /** 1 for the first run, 2 after a retry… */
  attempt: number;
}

/**
 * `signal` aborts on cancel and on shutdown. To wait (e.g. offline), throw `new JobError('waiting_for_network', …)`:
 * the job goes back to the queue with that error_code and is claimed again once `readiness` allows it.
 * Any other JobError fails the job with its code; other errors fail it with `remote_failed`.
 */
export type RunnerContext = EngineContext;

/** The queued job readiness is asked about (a batch item may wait while its siblings' hosted batch cannot open). */
export interface ReadinessJob {
  jobId: string;
  batchId: string | null;
}

/** A waiting code, optionally with the message stored on the job (default: the scheduler's generic one). */
export type Readiness = WaitingCode | { code: WaitingCode; message: string } | null;

export interface JobRunner {
  /** Jobs run at the same time through this runner (default 4). */
  readonly concurrency?: number;
  /** Checked before claiming a job: a waiting code keeps it queued with that error_code (default: ready). */
  readiness?(definition: ModelDefinition, job?: ReadinessJob): Readiness;
  run(task: RunnerTask, ctx: RunnerContext): Promise<EngineOutput>;
}

export interface Runners {
  remote?: JobRunner;
}

export const DEFAULT_RUNNER_CONCURRENCY = 4;
