/**
 * The contract shared by the two ways a local job is forwarded — alone (RemoteRunner with a Follower) or as an item
 * of one hosted batch (BatchForwarder) — kept apart from both so neither imports the other.
 */
import type { Product } from '../common/products.js';
import type { RemoteBatchesRepo } from '../store/remote-batches-repo.js';
import type { RemoteJobsRepo } from '../store/remote-jobs-repo.js';
import type { EngineInput } from '../engines/engine-types.js';
import type { Async } from '../store/store.js';
import type { Connectivity } from './connectivity.js';
import type { RemoteEndpoint } from './remote-client.js';
import type { RemoteOptions } from './remote-options.js';
import type { Log } from '../common/log.js';

/** What the runner needs of a local job. */
export interface RemoteTask {
  jobId: string;
  product: Product;
  /** Local catalogue id (`remote:<hosted id>`). */
  modelId: string;
  /** From the definition's engineConfig; falls back to the id without its prefix. */
  remoteModelId?: string;
  name: string | null;
  params: Record<string, unknown>;
  input: EngineInput;
  /** Directory owned by the job: downloaded artifacts go here. */
  workDir: string;
  /** Settles once workDir is made and empty (job-runner.ts RunnerTask); without it the follower makes the folder. */
  workDirReady?: Promise<void>;
}

/** The job engine's callbacks for a running job (its RunnerContext). */
export interface RemoteRunContext {
  /** Aborted on cancel and on shutdown; remote_jobs/jobs tell the two apart (cancel_requested). */
  signal: AbortSignal;
  progress(fraction: number): void;
  measured(seconds: number): void;
  log: Log;
}

export interface RemoteRunnerDeps {
  endpoint(): RemoteEndpoint | undefined;
  /** The shared store's forwarding rows (any node of a cluster may continue what another began). */
  jobs: Async<RemoteJobsRepo>;
  batches: Async<RemoteBatchesRepo>;
  connectivity: Connectivity;
  options: RemoteOptions;
  /** Diagnostics of the provider (the job engine's ctx.log may drop them). */
  log: Log;
  /** Test hook (VOXDESK_TEST_CRASH_POINT): called at named points; the serve process kills itself there. */
  crashPoint?: (name: string) => void;
}

/** Named point where a crash test kills the process: after the hosted job exists, before its id is recorded. */
export const CRASH_AFTER_SUBMIT = 'remote-after-submit';
/** Named point: after the hosted batch exists, before its id is recorded. */
export const CRASH_AFTER_BATCH_SUBMIT = 'remote-batch-after-submit';
