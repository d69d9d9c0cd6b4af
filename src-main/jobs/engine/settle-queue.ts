/**
 * Runs that finished, waiting to be settled together: several jobs that end in the same turn of the event loop share
 * one commit with the claims of the jobs that take their workers (the loop's next pass: loop.ts). A run hands its
 * settling here and waits; the pass settles every run queued so far inside its transaction, each in its own savepoint
 * (one that fails is rolled back alone and its run learns why), and each run goes on only once that transaction has
 * committed — a change is never reported before it is.
 */
import type { JobTx } from './state-machine.js';

interface Waiting {
  settle: (tx: JobTx) => Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class SettleQueue {
  private waiting: Waiting[] = [];

  /** @param ready called when the first run of a new group is queued (the loop then passes soon). */
  constructor(private readonly ready: () => void) {}

  /** Queues a run's settling; resolves once the pass that did it has committed. */
  settle(settle: (tx: JobTx) => Promise<void>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ settle, resolve, reject });
      if (this.waiting.length === 1) this.ready();
    });
  }

  get any(): boolean {
    return this.waiting.length > 0;
  }

  /**
   * Inside the pass's transaction: settles every run queued so far. Returns what to call once that transaction has
   * committed (null) or failed (the error).
   */
  async settleAll(tx: JobTx): Promise<(error: unknown) => void> {
    const group = this.waiting;
    this.waiting = [];
    const failed = new Map<number, unknown>();
    for (const [index, run] of group.entries()) {
      try {
        await tx.tx((savepoint) => run.settle(savepoint));
      } catch (error) {
        failed.set(index, error);
      }
    }
    return (error) => {
      group.forEach((run, index) => {
        const cause = error ?? failed.get(index);
        if (cause === undefined || cause === null) run.resolve();
        else run.reject(cause);
      });
    };
  }
}
