/**
 * The job engine's loop: the one owner of passes and timers. A pass settles the runs that finished (settle-queue.ts)
 * and claims the jobs that take their workers, in ONE transaction (job-scheduler.ts); it runs on the next turn of the
 * event loop after something asked for one (a job created, a run ended, a resume), however many asked meanwhile, and
 * on a timer (which also sweeps expired jobs). The timers also run the maintenance (retention, lapsed leases), write
 * the library search rows (in batches, when no run is under way or at least every searchIndexDelayMs) and renew the
 * leases of the runs under way. While stopping, a pass only settles.
 */
import { performance } from 'node:perf_hooks';
import { indexPending } from '../transcripts/transcripts-search-index.js';
import { guard, type JobCore } from './job-core.js';
import type { Executor } from './job-executor.js';
import type { Maintenance } from './job-maintenance.js';
import type { Scheduler } from './job-scheduler.js';
import type { SettleQueue } from './settle-queue.js';

export interface LoopParts {
  scheduler: Scheduler;
  settleQueue: SettleQueue;
  executor: Executor;
  maintenance: Maintenance;
}

export class Loop {
  private parts: LoopParts | null = null;
  private started = false;
  private stopping = false;
  private passPending = false;
  private running: Promise<void> = Promise.resolve();
  private readonly timers: NodeJS.Timeout[] = [];
  /** When the timer last wrote search rows (or the engine started): runs under way hold them back until then + delay. */
  private searchIndexedAt = 0;

  constructor(private readonly core: JobCore) {}

  /** The parts the loop drives (made after it, since they ask it for passes). */
  attach(parts: LoopParts): void {
    this.parts = parts;
  }

  get isRunning(): boolean {
    return this.started && !this.stopping;
  }

  /** Asks for a scheduling pass soon (coalesced); nothing while not started or stopping. */
  wake(): void {
    if (this.isRunning) this.passSoon();
  }

  /**
   * One pass on the next turn of the event loop, however many runs finished and changes asked for one meanwhile: a
   * run's settling and the wake that follows every run used to be two passes, the second with nothing to do. Passes
   * never overlap: one asked for while another runs follows it.
   */
  passSoon(): void {
    if (this.passPending) return;
    this.passPending = true;
    setImmediate(() => {
      this.passPending = false;
      const parts = this.parts;
      if (!parts) return;
      // Stopped meanwhile: only runs that finished are settled (pass() does nothing else while stopping).
      if (this.isRunning || parts.settleQueue.any) this.queuePass(false);
    });
  }

  private queuePass(sweep: boolean): void {
    this.running = this.running.then(() => new Promise<void>((resolve) => guard(this.core.options.log, 'settling and scheduling', () => this.pass(sweep).finally(resolve))));
  }

  /**
   * A scheduling pass that first settles the runs that finished, in the same transaction (one commit for the jobs
   * that ended and the claims of those taking their workers). While stopping only the settling is done.
   */
  private async pass(sweep: boolean): Promise<void> {
    const { scheduler, settleQueue } = this.parts!;
    const settle = settleQueue.any ? (tx: Parameters<SettleQueue['settleAll']>[0]) => settleQueue.settleAll(tx) : undefined;
    if (this.isRunning) return scheduler.schedule(sweep, settle);
    if (!settle) return;
    let settled: ((error: unknown) => void) | undefined;
    try {
      await this.core.machine.tx(async (tx) => void (settled = await settle(tx)));
    } catch (error) {
      settled?.(error);
      throw error;
    }
    settled?.(null);
  }

  /** Starts the passes and the timers (after the caller recovered interrupted jobs). */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.searchIndexedAt = performance.now();
    const { options } = this.core;
    const { maintenance, executor } = this.parts!;
    this.every(options.schedulerIntervalMs, 'scheduling', () => this.queuePass(true));
    this.every(options.maintenanceIntervalMs, 'maintenance', () => maintenance.runMaintenance());
    this.every(options.schedulerIntervalMs, 'search index', () => this.indexSearchRows());
    this.every((options.leaseSeconds * 1000) / 3, 'lease renewal', () => executor.renewLeases());
    this.wake();
  }

  private every(ms: number, label: string, fn: () => unknown): void {
    this.timers.push(setInterval(() => guard(this.core.options.log, label, fn), ms).unref());
  }

  /** No more passes but those that settle; timers stop. Resolves once the pass under way (if any) is done. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const timer of this.timers) clearInterval(timer);
    await this.running;
  }

  /**
   * The library search rows of transcriptions finished since the last tick (transcripts-search-index.ts; a search
   * catches up by itself before it reads). Jobs come first: while runs are under way the rows wait, up to
   * searchIndexDelayMs, and are written as soon as the engine is idle. Once begun, a batch per turn until none is left.
   */
  private async indexSearchRows(): Promise<void> {
    const { store, active, options } = this.core;
    if (this.stopping || !(await store.repos.search.anyPending())) return;
    if (active.size > 0 && performance.now() - this.searchIndexedAt < options.searchIndexDelayMs) return;
    while (!this.stopping) {
      this.searchIndexedAt = performance.now();
      if (!(await indexPending(store))) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
