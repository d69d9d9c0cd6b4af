/**
 * The worker pool's options, what a task's caller hears (TaskHandlers, RunOptions), and the pool's own book-keeping
 * of each worker (Slot) and each task given to one (ActiveTask). The pool itself is worker-pool.ts.
 */
import type { EngineKind, EngineOutput, EngineTask, ParentMessage, RecognizedSegment } from '../engine-types.js';
import type { LaunchedChild, ProcessLauncher } from './process-launcher.js';
import type { Log } from '../../common/log.js';

export interface WorkerPoolOptions {
  /** Number of worker processes (no default here: the job service decides, see job-service-options.ts). */
  size: number;
  /** What worker processes print (native libraries, a crash's dump) is appended to `workers.log` in this folder. */
  logDir: string;
  /** The pool's lines and its workers' ("worker N: …", a job's lines with its id). Default: none. */
  log?: Log;
  /** How long a cancelled task may take to stop before its worker is killed (default 3000 ms). */
  cancelGraceMs?: number;
  /** Environment of worker processes (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Starts the worker processes. Default forkLauncher (child_process.fork); the Electron app passes its own. */
  launcher?: ProcessLauncher;
  /** Engines every worker loads and warms as soon as it starts (default none; the job engine passes its choice). */
  warmEngines?: EngineKind[];
  /** Tasks a worker may hold (one running, the rest waiting in line) while they are all cheap (default TASKS_PER_WORKER). */
  tasksPerWorker?: number;
  /** Kinds whose runs averaged less than this (ms) are cheap (default CHEAP_TASK_MS). */
  cheapTaskMs?: number;
  /** `eager`: start() starts every worker; `on-demand`: a worker starts when a task needs it. Default 'eager'. */
  startWorkers?: 'eager' | 'on-demand';
  /** A worker with nothing to do for this long exits (the next task starts it again). Default Infinity: never. */
  idleExitMs?: number;
}

/**
 * A worker's line of cheap tasks, the one running included: at most 7 × CHEAP_TASK_MS of waiting for the last. The
 * results of a line's tasks reach the job engine close together and are settled in one commit, with the claims that
 * refill the line: 8 instead of 4 made 2.85 → 6.7 jobs a settling commit and 821 → 332 passes for 2,000 trivial jobs
 * (bench/jobs-throughput.ts).
 */
export const TASKS_PER_WORKER = 8;

export interface TaskHandlers {
  progress?(fraction: number): void;
  measured?(seconds: number): void;
  /** Encoded audio of a task run with streamAudio, in order. */
  audio?(bytes: Uint8Array): void;
  /** A recognised segment (checkpoint), in order, before the task's result. */
  segment?(segment: RecognizedSegment, progress: number): void;
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Kill the worker and fail with engine_timeout after this long (default: no limit). */
  timeoutMs?: number;
}

export interface ActiveTask {
  jobId: string;
  task: EngineTask;
  /** Started at the head of its worker's line (performance.now()); undefined while it waits in line. */
  startedAt: number | undefined;
  /** Called when the task reaches the head of its worker's line (starts its timeout). */
  onStart(): void;
  /** Cancel was asked: a task that waited in line is not sent again to a restarted worker. */
  cancelled: boolean;
  /** Its run timeout, started by onStart. */
  timeout?: NodeJS.Timeout;
  handlers: TaskHandlers;
  resolve(output: EngineOutput): void;
  reject(error: Error): void;
  timers: NodeJS.Timeout[];
  cleanup(): void;
}

export interface Slot {
  index: number;
  child: LaunchedChild | undefined;
  /** The worker's line: the first one runs, the others wait for it (only cheap tasks wait). */
  tasks: ActiveTask[];
  /** Resolved when the current child has loaded and warmed its engines (`warmed`). */
  ready: Promise<void>;
  markReady: () => void;
  /** Messages for the worker not sent yet: sent together once the current turn's work is done (send()). */
  outbox: ParentMessage[];
  /** Ends the worker when it has been idle for idleExitMs. */
  idleTimer: NodeJS.Timeout | undefined;
}

export function readiness(): { ready: Promise<void>; markReady: () => void } {
  let markReady = (): void => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  return { ready, markReady };
}

