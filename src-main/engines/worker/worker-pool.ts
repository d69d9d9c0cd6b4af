/**
 * Up to a fixed number of worker processes (worker-main), each running one task at a time, started by a ProcessLauncher
 * (child_process.fork by default; Electron's utilityProcess in the app). A crash (signal, exit, IPC disconnect)
 * rejects only the task that worker was running, with WorkerCrashError, and the worker is restarted. Cancellation
 * asks the worker first and kills it after `cancelGraceMs`.
 *
 * When workers run: `eager` (the default), `start()` starts every worker at once (the job engine calls it when it
 * starts), so the first job does not wait for a process and its modules. `on-demand` (the service's choice: a desktop
 * app waiting in the tray must cost little), no worker runs until a task needs one, and a worker idle for
 * `idleExitMs` exits; the next task starts it again (about 0.1–0.3 s: docs/job-engine.md). Either way one that dies
 * while idle is started again on the next task, so a worker that cannot start does not loop.
 * Engines are still loaded on first use and then kept (worker-main.ts), so memory holds only the engines in use.
 *
 * Cheap tasks are pipelined: a worker busy with tasks of engine kinds whose runs have lately taken less than
 * CHEAP_TASK_MS may be given more (up to `tasksPerWorker`), which it runs one after the other, so it goes from one to
 * the next without waiting for a round trip through the service (bench/jobs-throughput.ts). Only a task at the head of
 * its worker's line runs: its timeout starts then. A task still waiting in line is cancelled without touching the
 * task that runs, and it is sent again to the restarted worker when the one ahead of it crashed or was killed (it
 * never started, so it is not to blame). A new task goes to an idle worker first.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { jobCancelled, JobError } from '../../common/errors.js';
import { silentLog, type Log } from '../../common/log.js';
import type { EngineKind, EngineOutput, EngineTask, ParentMessage, WorkerMessage } from '../engine-types.js';
import { scriptEntry, type ScriptEntry } from '../../platform/script-entry.js';
import { forkLauncher, type LaunchedChild, type ProcessLauncher } from './process-launcher.js';
import { EngineRunTimes } from './engine-run-times.js';
import { readiness, TASKS_PER_WORKER, type ActiveTask, type RunOptions, type Slot, type TaskHandlers, type WorkerPoolOptions } from './worker-pool-types.js';

export { TASKS_PER_WORKER, type RunOptions, type TaskHandlers, type WorkerPoolOptions } from './worker-pool-types.js';

/** The worker died while running the task. */
export class WorkerCrashError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerCrashError';
  }
}

/** The compiled worker when it exists (dist/, the app); the TypeScript source under tsx in a checkout. */
function workerEntry(): ScriptEntry {
  return scriptEntry('worker-main', import.meta.url);
}

export class WorkerPool {
  readonly size: number;
  private readonly slots: Slot[];
  private readonly logFile: string;
  private readonly logger: Log;
  private readonly cancelGraceMs: number;
  private readonly env: NodeJS.ProcessEnv;
  private readonly launcher: ProcessLauncher;
  private readonly warmEngines: EngineKind[];
  /** Tasks a worker may hold while they are all cheap: an idle worker given a cheap task has tasksPerWorker − 1 places left. */
  readonly tasksPerWorker: number;
  private readonly runTimes: EngineRunTimes;
  /** Called when a slot's process has ended (stop() waits on these). */
  private readonly endWaiters = new Map<LaunchedChild, () => void>();
  private stopped = false;
  /** Worker processes started so far (a restart counts): lets tests see that a crashed worker came back. */
  started = 0;

  constructor(options: WorkerPoolOptions) {
    if (!Number.isInteger(options.size) || options.size < 1) throw new Error(`worker pool size must be ≥ 1, got ${options.size}`);
    this.size = options.size;
    this.slots = Array.from({ length: options.size }, (_, index) => ({ index, child: undefined, tasks: [], outbox: [], idleTimer: undefined, ...readiness() }));
    mkdirSync(options.logDir, { recursive: true, mode: 0o700 });
    this.logFile = join(options.logDir, 'workers.log');
    this.logger = options.log ?? silentLog;
    this.cancelGraceMs = options.cancelGraceMs ?? 3000;
    this.env = options.env ?? process.env;
    this.launcher = options.launcher ?? forkLauncher;
    this.warmEngines = options.warmEngines ?? [];
    this.tasksPerWorker = Math.max(1, options.tasksPerWorker ?? TASKS_PER_WORKER);
    this.runTimes = new EngineRunTimes(options.cheapTaskMs);
    this.onDemand = options.startWorkers === 'on-demand';
    this.idleExitMs = options.idleExitMs ?? Infinity;
    if (!(this.idleExitMs > 0)) throw new Error(`worker pool idleExitMs must be > 0, got ${options.idleExitMs}`);
  }

  private readonly onDemand: boolean;
  private readonly idleExitMs: number;

  /** Starts every worker that is not running yet (idempotent); on demand, none (a task starts its worker). */
  start(): void {
    if (this.stopped || this.onDemand) return;
    for (const slot of this.slots) if (!slot.child) this.spawn(slot);
  }

  /**
   * Starts one worker ahead of a job when none runs (the person opened the app: their first job should not wait for a
   * process and its engines); it warms its engines and, given nothing to do, exits after idleExitMs like any other.
   */
  prewarm(): void {
    if (this.stopped || this.slots.some((slot) => slot.child)) return;
    this.spawn(this.slots[0]!);
  }

  /** Resolves when every running worker has loaded and warmed its engines (one not started counts as ready). */
  async whenReady(): Promise<void> {
    await Promise.all(this.slots.map((slot) => (slot.child ? slot.ready : undefined)));
  }

  /** Workers with nothing to do. */
  get idle(): number {
    return this.stopped ? 0 : this.slots.filter((s) => s.tasks.length === 0).length;
  }

  /** Places in busy workers' lines that a cheap task (see cheap()) may take now. */
  get spare(): number {
    if (this.stopped) return 0;
    let spare = 0;
    for (const slot of this.slots) {
      if (slot.tasks.length > 0 && slot.tasks.every((t) => this.cheap(t.task.engine))) spare += this.tasksPerWorker - slot.tasks.length;
    }
    return spare;
  }

  /** Whether tasks of this engine kind have lately run for less than `cheapTaskMs` on average (engine-run-times.ts). */
  cheap(kind: EngineKind): boolean {
    return this.runTimes.cheap(kind);
  }

  pids(): number[] {
    return this.slots.flatMap((s) => (s.child?.pid ? [s.child.pid] : []));
  }

  /**
   * Runs a task on an idle worker, or (a cheap kind, no worker idle) in the line of a busy worker whose tasks are all
   * cheap. The caller checks `idle` and `spare` first; a task that arrives after what it was counted on changed (a
   * kind measured slower meanwhile is no longer cheap) waits in the shortest line rather than failing a claimed job.
   */
  run(task: EngineTask, handlers: TaskHandlers = {}, options: RunOptions = {}): Promise<EngineOutput> {
    if (this.stopped) return Promise.reject(new Error('the worker pool is stopped'));
    const slot = this.slotFor(task.engine) ?? this.shortestLine();
    return new Promise<EngineOutput>((resolve, reject) => {
      const active: ActiveTask = {
        jobId: task.jobId,
        task,
        startedAt: undefined,
        cancelled: false,
        handlers,
        timers: [],
        onStart: () => {
          active.startedAt = performance.now();
          if (options.timeoutMs === undefined || !Number.isFinite(options.timeoutMs)) return;
          clearTimeout(active.timeout);
          active.timeout = setTimeout(() => {
            if (slot.tasks[0] !== active) return;
            const seconds = Math.round(options.timeoutMs! / 1000);
            active.reject(new JobError('engine_timeout', `the engine ran longer than ${seconds} s and was stopped`));
            this.recycle(slot);
          }, options.timeoutMs);
        },
        resolve: (output) => {
          this.measure(active);
          active.cleanup();
          resolve(output);
        },
        reject: (error) => {
          active.cleanup();
          reject(error);
        },
        cleanup: () => {
          for (const t of active.timers) clearTimeout(t);
          clearTimeout(active.timeout);
          options.signal?.removeEventListener('abort', onAbort);
          this.leave(slot, active);
        },
      };
      const onAbort = (): void => {
        if (!slot.tasks.includes(active)) return;
        active.cancelled = true;
        this.send(slot, { type: 'cancel', jobId: task.jobId });
        active.timers.push(
          setTimeout(() => {
            if (slot.tasks[0] !== active) return;
            this.log(`worker ${slot.index}: ${task.jobId} did not stop ${this.cancelGraceMs} ms after cancel; killing it`);
            active.reject(jobCancelled());
            this.recycle(slot);
          }, this.cancelGraceMs),
        );
      };
      slot.tasks.push(active);
      this.busy(slot);
      if (slot.tasks.length === 1) active.onStart();
      if (options.signal?.aborted) return void queueMicrotask(onAbort);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.send(slot, { type: 'run', task });
    });
  }

  /** An idle worker first; else the shortest line of cheap tasks with room, for a cheap kind. */
  private slotFor(kind: EngineKind): Slot | undefined {
    const idle = this.slots.find((s) => s.tasks.length === 0);
    if (idle || !this.cheap(kind)) return idle;
    let best: Slot | undefined;
    for (const slot of this.slots) {
      if (slot.tasks.length >= this.tasksPerWorker || !slot.tasks.every((t) => this.cheap(t.task.engine))) continue;
      if (!best || slot.tasks.length < best.tasks.length) best = slot;
    }
    return best;
  }

  private shortestLine(): Slot {
    return this.slots.reduce((best, slot) => (slot.tasks.length < best.tasks.length ? slot : best));
  }

  /** A task left its worker's line: the next one in line is running now. */
  private leave(slot: Slot, active: ActiveTask): void {
    const at = slot.tasks.indexOf(active);
    if (at < 0) return;
    slot.tasks.splice(at, 1);
    if (at === 0) slot.tasks[0]?.onStart();
    if (slot.tasks.length === 0) this.idleFrom(slot);
  }

  /** The slot has work: its worker stays. */
  private busy(slot: Slot): void {
    clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
  }

  /** The slot's worker has nothing to do: it exits after idleExitMs unless a task comes first. */
  private idleFrom(slot: Slot): void {
    if (!Number.isFinite(this.idleExitMs) || this.stopped) return;
    clearTimeout(slot.idleTimer);
    slot.idleTimer = setTimeout(() => this.retire(slot), this.idleExitMs);
    slot.idleTimer.unref();
  }

  /** Ends an idle worker (asked to: not a crash); the next task starts a new one. */
  private retire(slot: Slot): void {
    slot.idleTimer = undefined;
    const child = slot.child;
    if (!child || slot.tasks.length > 0 || slot.outbox.length > 0 || this.stopped) return;
    slot.child = undefined;
    // Whoever waits for this worker to be ready stops waiting: it is gone, as a worker never started.
    slot.markReady();
    Object.assign(slot, readiness());
    this.log(`worker ${slot.index}: exits after ${Math.round(this.idleExitMs / 1000)} s with nothing to do`);
    child.kill();
  }

  private measure(active: ActiveTask): void {
    if (active.startedAt === undefined) return;
    this.runTimes.record(active.task.engine, performance.now() - active.startedAt);
  }

  /** Kills every worker. Tasks still running are rejected. */
  async stop(): Promise<void> {
    this.stopped = true;
    const exits = this.slots.map((slot) => {
      this.busy(slot);
      const child = slot.child;
      for (const task of [...slot.tasks]) task.reject(new Error('the worker pool stopped'));
      if (!child) return Promise.resolve();
      // Asked to end: not a crash to report (crashed() ignores a child that is no longer the slot's).
      slot.child = undefined;
      return new Promise<void>((resolve) => {
        this.endWaiters.set(child, resolve);
        child.kill();
      });
    });
    await Promise.all(exits);
  }

  /**
   * Messages for a worker go in one IPC message per turn of the event loop: the tasks one scheduling pass gives a
   * worker's line travel together (each message costs a serialization and a write that wakes the worker; about a
   * tenth of the job engine's thread per trivial job, bench/jobs-throughput.ts). In order, so a cancel never passes
   * the task it cancels. Sent before any I/O or timer callback, so nothing (a crash, a restart) comes in between.
   */
  private send(slot: Slot, message: ParentMessage): void {
    slot.outbox.push(message);
    if (slot.outbox.length === 1) queueMicrotask(() => this.flush(slot));
  }

  private flush(slot: Slot): void {
    const messages = slot.outbox;
    slot.outbox = [];
    if (messages.length === 0 || this.stopped) return;
    (slot.child ?? this.spawn(slot)).send(messages.length === 1 ? messages[0]! : { type: 'batch', messages });
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
    if (slot.tasks.length === 0) this.idleFrom(slot);
    return child;
  }

  private onMessage(slot: Slot, child: LaunchedChild, message: WorkerMessage): void {
    if (slot.child !== child) return;
    if (message.type === 'ready') return;
    if (message.type === 'warmed') return slot.markReady();
    if (message.type === 'log') {
      // Worded as workers.log had them ("worker 0: job_…: …"): a text log shows no scopes, and a line needs its job.
      this.logger[message.level](`worker ${slot.index}: ${message.scope ? `${message.scope}: ` : ''}${message.message}`, message.fields);
      return;
    }
    const task = slot.tasks.find((t) => t.jobId === message.jobId);
    if (!task) return;
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
    this.log(`worker ${slot.index}: ${reason}`, 'warn');
    const task = slot.tasks[0];
    if (!task) return; // an idle worker that died is started again lazily, on the next task (no restart loop)
    task.reject(new WorkerCrashError(reason));
    if (!this.stopped) this.restart(slot); // restart now so the next task does not pay the start-up
  }

  /** Kills a worker whose task was given up (cancel grace or timeout); a fresh one replaces it. */
  private recycle(slot: Slot): void {
    const child = slot.child;
    if (!child) return;
    slot.child = undefined;
    child.kill();
    if (!this.stopped) this.restart(slot);
  }

  /** A fresh worker for the slot, given the tasks that waited in line behind the one that ended (they never ran). */
  private restart(slot: Slot): void {
    this.spawn(slot);
    for (const waiting of [...slot.tasks]) {
      if (waiting.cancelled) waiting.reject(jobCancelled());
      else this.send(slot, { type: 'run', task: waiting.task });
    }
    // The first of them runs once the new worker has started: its timeout counts from then, not from the restart.
    const head = slot.tasks[0];
    if (!head) return;
    clearTimeout(head.timeout);
    void slot.ready.then(() => {
      if (slot.tasks[0] === head) head.onStart();
    });
  }

  private log(line: string, level: 'info' | 'warn' = 'info'): void {
    this.logger[level](line);
  }
}
