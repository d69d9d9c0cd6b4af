/**
 * Who waits for which job to end (a held POST, the OpenAI routes, the CLI): found by id when a status is committed,
 * so a thousand waiters cost nothing per change and no view is built for them. A job can end on another node of a
 * cluster, whose commit this node never sees as an event: a waiter also looks at the job again on a slow timer
 * (`recheckMs`), and the store's change notifications (PostgreSQL LISTEN) wake every waiter to look at once.
 */
import { isTerminal } from '../../common/job-states.js';
import type { JobRow } from '../../store/jobs-repo.js';
import type { Store } from '../../store/store.js';

/** How often a waiter looks at its job when nothing told it anything. Default 2 s. */
export const RECHECK_MS = 2000;

export class TerminalWaiters {
  private readonly waiting = new Map<string, Set<() => void>>();

  constructor(
    private readonly store: Store,
    private readonly recheckMs = RECHECK_MS,
  ) {}

  /** The state machine's status listener: a committed terminal status ends the waits for that job. */
  committed(row: JobRow): void {
    if (!isTerminal(row.status)) return;
    const waiting = this.waiting.get(row.id);
    if (waiting) for (const finish of [...waiting]) finish();
  }

  /** Another node may have ended some jobs: every waiter looks at its job again. */
  async othersCommitted(): Promise<void> {
    for (const [jobId, finishes] of [...this.waiting]) {
      const row = await this.store.repos.jobs.getWithoutResult(jobId);
      if (!row || isTerminal(row.status)) for (const finish of [...finishes]) finish();
    }
  }

  /** Resolves when the job is terminal or after timeoutMs, whichever comes first (or when `signal` aborts). */
  async wait(jobId: string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
    const row = await this.store.repos.jobs.getWithoutResult(jobId);
    if (!row || isTerminal(row.status) || signal?.aborted) return;
    await new Promise<void>((resolve) => {
      const finish = (): void => {
        clearTimeout(timer);
        clearInterval(recheck);
        const waiting = this.waiting.get(jobId);
        waiting?.delete(finish);
        if (waiting?.size === 0) this.waiting.delete(jobId);
        signal?.removeEventListener('abort', finish);
        resolve();
      };
      const timer = setTimeout(finish, Math.max(0, timeoutMs));
      const recheck = setInterval(() => {
        void this.store.repos.jobs.getWithoutResult(jobId).then(
          (now) => (!now || isTerminal(now.status) ? finish() : undefined),
          () => undefined,
        );
      }, this.recheckMs);
      recheck.unref();
      let waiting = this.waiting.get(jobId);
      if (!waiting) this.waiting.set(jobId, (waiting = new Set()));
      waiting.add(finish);
      signal?.addEventListener('abort', finish, { once: true });
    });
  }
}
