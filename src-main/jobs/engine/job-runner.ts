/**
 * Pluggable runners for models that no local worker serves. The job engine dispatches by definition.engine:
 * on-device kinds go to the worker pool, `'remote'` goes to the registered remote JobRunner (hosted forwarding,
 * written by the remote provider). Without one, remote models fail `model_unavailable`.
 */
import type { WaitingCode } from '../../common/errors.js';
import type { JobProduct, Product } from '../../common/products.js';
import type { EngineContext, EngineOutput, EngineTask } from '../../engines/engine-types.js';
import type { ModelDefinition } from '../../engines/model-definition.js';

export interface RunnerTask extends Omit<EngineTask, 'engine' | 'product'> {
  /** A spec product, or `transcript-ai` (a language-model action: remote/language-model/). */
  product: JobProduct;
  accountId: string;
  definition: ModelDefinition;
  /**
   * The runs that counted, this one included: 1 for the first run, 2 after one that crashed its worker… A run that
   * ended waiting (`waiting_for_network`, any waiting code), paused or stopped by a shutdown was not the job's fault
   * and is not counted, so the next run has the same number (docs/job-engine.md, "Attempts").
   */
  attempt: number;
  /**
   * Settles once `workDir` exists and holds nothing of an earlier attempt: the folder is prepared while the runner
   * starts its hosted call, so a runner awaits this before it writes there (it rejects when the folder cannot be made).
   */
  workDirReady?: Promise<void>;
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

/** A batch whose items are held pending until the runner has placed it as a whole (jobs/batch-hold.ts). */
export interface HeldBatch {
  batchId: string;
  accountId: string;
  product: Product;
  definition: ModelDefinition;
  params: Record<string, unknown>;
}

/**
 * What placing a held batch came to: `accepted` (its items become queued jobs), `waiting` (they stay pending with
 * that reason; the batch is offered again on a later scheduling pass) or `refused` (they fail with that code).
 */
export type HoldOutcome =
  | { kind: 'accepted' }
  | { kind: 'waiting'; code: WaitingCode; message: string }
  | { kind: 'refused'; code: string; message: string };

export interface JobRunner {
  /** Jobs run at the same time through this runner (default 4). */
  readonly concurrency?: number;
  /** Checked before claiming a job: a waiting code keeps it queued with that error_code (default: ready). */
  readiness?(definition: ModelDefinition, job?: ReadinessJob): Readiness;
  run(task: RunnerTask, ctx: RunnerContext): Promise<EngineOutput>;
  /**
   * When given, batches on this runner's models are held: their items stay pending (no jobs) until this places the
   * batch. It must answer `waiting` quickly while it knows it cannot place the batch yet (offline, a backoff), since
   * it is asked again on every scheduling pass; `signal` aborts on shutdown and when the batch is cancelled.
   */
  placeBatch?(batch: HeldBatch, signal: AbortSignal): Promise<HoldOutcome>;
}

export interface Runners {
  remote?: JobRunner;
}

export const DEFAULT_RUNNER_CONCURRENCY = 4;
