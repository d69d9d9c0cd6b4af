/**
 * A fixed number of worker processes (worker-main), each running one task at a time, started by a ProcessLauncher
 * (child_process.fork by default; Electron's utilityProcess in the app). A crash (signal, exit, IPC disconnect)
 * rejects only the task that worker was running, with WorkerCrashError, and the worker is restarted. Cancellation
 * asks the worker first and kills it after `cancelGraceMs`.
 *
 * `start()` starts every worker at once (the job engine calls it when the service starts), so the first job does not
 * wait seconds for a process and its module loading (one that dies while idle is started again on the next task, so
 * a worker that cannot start does not loop).
 * Engines are still loaded on first use and then kept (worker-main.ts), so memory holds only the engines in use.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { JobError } from '../../common/errors.js';
import type { EngineKind, EngineOutput, EngineTask, ParentMessage, RecognizedSegment, WorkerMessage } from '../engine-types.js';
import { scriptEntry, type ScriptEntry } from '../script-entry.js';
import { forkLauncher, type LaunchedChild, type ProcessLauncher } from './process-launcher.js';

export interface WorkerPoolOptions {
  /** Number of worker processes (no default here: the job service decides, see job-service-options.ts). */
  size: number;
  /** Worker stderr/stdout are appended to `workers.log` in this folder. */
  logDir: string;
  /** How long a cancelled task may take to stop before its worker is killed (default 3000 ms). */
  cancelGraceMs?: number;
  /** Environment of worker processes (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Starts the worker processes. Default forkLauncher (child_process.fork); the Electron app passes its own. */
  launcher?: ProcessLauncher;
  /** Engines every worker loads and warms as soon as it starts (default none; the job engine passes its choice). */
  warmEngines?: EngineKind[];
}

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

/** The worker died while running the task. */
export class WorkerCrashError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerCrashError';
  }
}

interface ActiveTask {
  jobId: string;
  handlers: TaskHandlers;
  resolve(output: EngineOutput): void;
  reject(error: Error): void;
  timers: NodeJS.Timeout[];
  cleanup(): void;
}

interface Slot {
  index: number;
  child: LaunchedChild | undefined;
  task: ActiveTask | undefined;
  /** Resolved when the current child has loaded and warmed its engines (`warmed`). */
  ready: Promise<void>;
  markReady: () => void;
}

function readiness(): { ready: Promise<void>; markReady: () => void } {
  let markReady = (): void => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  return { ready, markReady };
}

/** The compiled worker when it exists (dist/, the app); the TypeScript source under tsx in a checkout. */
function workerEntry(): ScriptEntry {
  return scriptEntry('worker-main', import.meta.url);
}

export class WorkerPool {
  readonly size: number;
  private readonly slots: Slot[];
  private readonly logFile: string;
  private readonly cancelGraceMs: number;
  private readonly env: NodeJS.ProcessEnv;
  private readonly launcher: ProcessLauncher;
  private readonly warmEngines: EngineKind[];
  /** Called when a slot's process has ended (stop() waits on these). */
  private readonly endWaiters = new Map<LaunchedChild, () => void>();
  private stopped = false;
  /** Worker processes started so far (a restart counts): lets tests see that a crashed worker came back. */
  started = 0;

  constructor(options: WorkerPoolOptions) {
    if (!Number.isInteger(options.size) || options.size < 1) throw new Error(`worker pool size must be ≥ 1, got ${options.size}`);
    this.size = options.size;
    this.slots = Array.from({ length: options.size }, (_, index) => ({ index, child: undefined, task: undefined, ...readiness() }));
    mkdirSync(options.logDir, { recursive: true, mode: 0o700 });
    this.logFile = join(options.logDir, 'workers.log');
    this.cancelGraceMs = options.cancelGraceMs ?? 3000;
    this.env = options.env ?? process.env;
    this.launcher = options.launcher ?? forkLauncher;
    this.warmEngines = options.warmEngines ?? [];
  }

  /** Starts every worker that is not running yet (idempotent). */
  start(): void {
    if (this.stopped) return;
    for (const slot of this.slots) if (!slot.child) this.spawn(slot);
  }

  /** Resolves when every worker has started and loaded and warmed its engines (after start()). */
  async whenReady(): Promise<void> {
    await Promise.all(this.slots.map((slot) => slot.ready));
  }

  get idle(): number {
    return this.stopped ? 0 : this.slots.filter((s) => !s.task).length;
  }

  pids(): number[] {
    return this.slots.flatMap((s) => (s.child?.pid ? [s.child.pid] : []));
  }

  run(task: EngineTask, handlers: TaskHandlers = {}, options: RunOptions = {}): Promise<EngineOutput> {
    if (this.stopped) return Promise.reject(new Error('the worker pool is stopped'));
    const slot = this.slots.find((s) => !s.task);
    if (!slot) return Promise.reject(new Error('no idle worker (the caller must check idle first)'));
    return new Promise<EngineOutput>((resolve, reject) => {
      const active: ActiveTask = {
        jobId: task.jobId,
        handlers,
        timers: [],
        resolve: (output) => {
          active.cleanup();
          resolve(output);
        },
        reject: (error) => {
          active.cleanup();
          reject(error);
        },
        cleanup: () => {
          for (const t of active.timers) clearTimeout(t);
          options.signal?.removeEventListener('abort', onAbort);
          if (slot.task === active) slot.task = undefined;
        },
      };
      const onAbort = (): void => {
        if (slot.task !== active) return;
        this.send(slot, { type: 'cancel', jobId: task.jobId });
        active.timers.push(
          setTimeout(() => {
            if (slot.task !== active) return;
            this.log(`worker ${slot.index}: ${task.jobId} did not stop ${this.cancelGraceMs} ms after cancel; killing it`);
            active.reject(new JobError('cancelled', 'cancelled'));
            this.recycle(slot);
          }, this.cancelGraceMs),
        );
      };
      slot.task = active;
      if (options.timeoutMs !== undefined && Number.isFinite(options.timeoutMs)) {
        active.timers.push(
          setTimeout(() => {
            if (slot.task !== active) return;
            const seconds = Math.round(options.timeoutMs! / 1000);
            active.reject(new JobError('engine_timeout', `the engine ran longer than ${seconds} s and was stopped`));
            this.recycle(slot);
          }, options.timeoutMs),
        );
      }
      if (options.signal?.aborted) return void queueMicrotask(onAbort);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.send(slot, { type: 'run', task });
    });
  }

  /** Kills every worker. Tasks still running are rejected. */
  async stop(): Promise<void> {
    this.stopped = true;
    const exits = this.slots.map((slot) => {
      const child = slot.child;
      slot.task?.reject(new Error('the worker pool stopped'));
      if (!child) return Promise.resolve();
      return new Promise<void>((resolve) => {
        this.endWaiters.set(child, resolve);
        child.kill();
      });
    });
    await Promise.all(exits);
  }

  private send(slot: Slot, message: ParentMessage): void {
    (slot.child ?? this.spawn(slot)).send(message);
  }

  private spawn(slot: Slot): LaunchedChild {
    const entry = workerEntry();
    const child: LaunchedChild = this.launcher(
      { modulePath: entry.path, execArgv: entry.execArgv, env: this.env, output: { file: this.logFile }, name: `voxdesk worker ${slot.index}` },
      {
        message: (message) => this.onMessage(slot, child, message as WorkerMessage),
        ended: (how) => {
          this.endWaiters.get(child)?.();
          this.endWaiters.delete(child);
          this.crashed(slot, child, `the worker process ${how}`);
        },
      },
    );
    this.started++;
    slot.child = child;
    Object.assign(slot, readiness());
    this.log(`worker ${slot.index}: started pid ${child.pid ?? '?'}`);
    child.send({ type: 'warm', engines: this.warmEngines } satisfies ParentMessage);
    return child;
  }

  private onMessage(slot: Slot, child: LaunchedChild, message: WorkerMessage): void {
    if (slot.child !== child) return;
    if (message.type === 'ready') return;
    if (message.type === 'warmed') return slot.markReady();
    const task = slot.task;
    if (!task || task.jobId !== message.jobId) return;
    switch (message.type) {
      case 'progress':
        task.handlers.progress?.(message.progress);
        break;
      case 'measured':
        task.handlers.measured?.(message.durationSeconds);
        break;
      case 'audio':
        task.handlers.audio?.(message.bytes);
        break;
      case 'segment':
        task.handlers.segment?.(message.segment, message.progress);
        break;
      case 'done':
        task.resolve(message.output);
        break;
      case 'failed':
        task.reject(new JobError(message.code, message.message));
        break;
    }
  }

  private crashed(slot: Slot, child: LaunchedChild, reason: string): void {
    if (slot.child !== child) return;
    slot.child = undefined;
    this.log(`worker ${slot.index}: ${reason}`);
    const task = slot.task;
    if (!task) return; // an idle worker that died is started again lazily, on the next task (no restart loop)
    task.reject(new WorkerCrashError(reason));
    if (!this.stopped) this.spawn(slot); // restart now so the next task does not pay the start-up
  }

  /** Kills a worker whose task was given up (cancel grace or timeout); a fresh one replaces it. */
  private recycle(slot: Slot): void {
    const child = slot.child;
    if (!child) return;
    slot.child = undefined;
    child.kill();
    if (!this.stopped) this.spawn(slot);
  }

  private log(line: string): void {
    try {
      const fd = openSync(this.logFile, 'a', 0o600);
      writeSync(fd, `[${new Date().toISOString()}] ${line}\n`);
      closeSync(fd);
    } catch {
      // The log is diagnostics only; never fail a job over it.
    }
  }
}
