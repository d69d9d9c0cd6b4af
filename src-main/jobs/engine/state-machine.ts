/**
 * The one place a job's status changes. Every change is checked against common/job-states.ts's table inside a
 * transaction of the store, applies the field rules of each status (started_at only when running, finished_at only
 * when terminal, error_code cleared on start, a pause request ends with the run), completes the job's batch when its
 * last item finishes, and notes what changed so that events are emitted after the commit — never before.
 *
 * A transaction is `machine.tx(async (t) => …)`: `t.repos` are the store's repositories inside it, `t.transition`,
 * `t.patch` and `t.touch` record changes, and `t.tx` is a savepoint (rolled back alone when it throws; its changes
 * are emitted with the outer transaction). Each transaction keeps its own list of changes, so transactions of
 * different requests never see each other's.
 *
 * Progress is null when a job starts or goes back to the queue, except for a job with committed segments
 * (checkpoints): it continues from them, so its progress is kept.
 *
 * What it costs per change matters (bench/jobs-throughput.ts): the row as written is kept for the events instead of
 * being read again, a view (which reads artifacts and segments) is built only when someone listens to `job-changed`
 * / `batch-changed`, and `statusListener` learns each committed status without any view.
 */
import { EventEmitter } from 'node:events';
import { canTransition, countItems, isTerminal, type JobStatus } from '../../common/job-states.js';
import type { Clock } from '../../store/clock.js';
import type { JobMutable, JobRow } from '../../store/jobs-repo.js';
import type { Store, StoreRepos, Tx } from '../../store/store.js';
import type { JobEvents } from './job-service-types.js';
import type { Views } from './views.js';
import { silentLog, type Log } from '../../common/log.js';

export type JobPatch = Partial<Omit<JobMutable, 'status' | 'updated_at'>>;

/** In a fixed order, so each set of changed columns is one prepared UPDATE (jobs-repo.ts). */
const MUTABLE_COLUMNS: readonly (keyof JobMutable)[] = [
  'status', 'error_code', 'error_message', 'duration_seconds', 'result_json', 'progress', 'attempts', 'cancel_requested',
  'pause_requested', 'claimed_by', 'lease_expires_at', 'deadline_at', 'reserved_usd_micro', 'started_at', 'finished_at', 'updated_at',
];

function mutable(row: JobRow): JobMutable {
  const out = {} as Record<keyof JobMutable, unknown>;
  for (const column of MUTABLE_COLUMNS) out[column] = row[column];
  return out as unknown as JobMutable;
}

/** What one transaction changed: emitted when it commits. */
interface Changes {
  jobs: Map<string, JobRow | null>;
  batches: Set<string>;
}

/** A transaction of the job engine: the store's repositories in it, and the only ways to change a job's status. */
export interface JobTx {
  readonly repos: StoreRepos;
  /** Moves a job to `to`; returns the row as written. */
  transition(row: JobRow, to: JobStatus, patch?: JobPatch): Promise<JobRow>;
  /** Changes fields without changing the status (progress, duration, waiting codes, cancel request, lease). */
  patch(row: JobRow, patch: JobPatch): Promise<JobRow>;
  /** Marks a job/batch as changed outside transition/patch (just inserted: the row as inserted, or its id). */
  touch(job: string | JobRow | null, batchId: string | null): void;
  /** A savepoint: rolled back alone when it throws; its changes are emitted with this transaction's. */
  tx<T>(fn: (tx: JobTx) => Promise<T>): Promise<T>;
}

export class StateMachine {
  readonly events = new EventEmitter<JobEvents>();
  /** Called after each commit for every job it changed, with the row as committed (no view built). */
  statusListener: ((row: JobRow) => void) | undefined;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly views: Views,
    /** Called inside the transaction when a batch completes (billing). */
    private readonly onBatchComplete: (repos: StoreRepos, batchId: string, items: JobRow[]) => Promise<void>,
    /** The service's logger (JobServiceOptions.log). */
    private readonly log: Log = silentLog,
  ) {
    this.events.setMaxListeners(0);
  }

  /** Runs `fn` in a transaction of the store, then emits job-changed / batch-changed for what it changed. */
  async tx<T>(fn: (tx: JobTx) => Promise<T>): Promise<T> {
    const changes: Changes = { jobs: new Map(), batches: new Set() };
    const result = await this.store.tx((tx) => fn(this.wrap(tx, changes)));
    await this.flush(changes);
    return result;
  }

  private wrap(tx: Tx, changes: Changes): JobTx {
    return {
      repos: tx.repos,
      transition: (row, to, patch) => this.transition(tx.repos, changes, row, to, patch ?? {}),
      patch: (row, patch) => this.patch(tx.repos, changes, row, patch),
      touch: (job, batchId) => {
        if (typeof job === 'object' && job !== null) changes.jobs.set(job.id, job);
        else if (job && !changes.jobs.has(job)) changes.jobs.set(job, null);
        if (batchId) changes.batches.add(batchId);
      },
      tx: async (fn) => {
        const jobs = new Map(changes.jobs);
        const batches = new Set(changes.batches);
        try {
          return await tx.tx((inner) => fn(this.wrap(inner, changes)));
        } catch (error) {
          changes.jobs = jobs;
          changes.batches = batches;
          throw error;
        }
      },
    };
  }

  private async transition(repos: StoreRepos, changes: Changes, row: JobRow, to: JobStatus, patch: JobPatch): Promise<JobRow> {
    // A transition the table forbids is a bug in the caller, never a code a client branches on: a plain Error.
    if (!canTransition(row.status, to)) throw new Error(`job ${row.id}: ${row.status} → ${to} is not an allowed transition`);
    const now = this.clock().toISOString();
    const next: JobMutable = { ...mutable(row), ...patch, status: to, updated_at: now };
    next.pause_requested = 0;
    // A job without progress keeps none: its segments need not be counted (one read fewer for every claim).
    const kept = async (): Promise<number | null> =>
      'progress' in patch ? (patch.progress ?? null) : row.progress !== null && (await repos.segments.count(row.id)) > 0 ? row.progress : null;
    if (to === 'running') {
      next.started_at = now;
      next.finished_at = null;
      next.error_code = null;
      next.error_message = null;
      next.progress = await kept();
      next.attempts = row.attempts + 1;
    } else if (to === 'queued') {
      next.started_at = null;
      next.finished_at = null;
      next.progress = await kept();
      next.claimed_by = null;
      next.lease_expires_at = null;
      next.error_code = patch.error_code ?? null;
      next.error_message = patch.error_message ?? null;
    } else {
      next.finished_at = now;
      next.claimed_by = null;
      next.lease_expires_at = null;
      if (to === 'succeeded') {
        next.progress = 1;
        next.error_code = null;
        next.error_message = null;
      }
    }
    const written = await this.write(repos, changes, row, next);
    if (isTerminal(to) && row.batch_id) await this.refreshBatch(repos, changes, row.batch_id);
    return written;
  }

  private patch(repos: StoreRepos, changes: Changes, row: JobRow, patch: JobPatch): Promise<JobRow> {
    const next: JobMutable = { ...mutable(row), ...patch, status: row.status, updated_at: this.clock().toISOString() };
    return this.write(repos, changes, row, next);
  }

  /**
   * Only the columns whose value changes are written (and updated_at): an UPDATE maintains only the indexes on the
   * columns it sets. The write is a compare-and-set on the status the row was read with: a job another node changed
   * meanwhile is not overwritten (the transaction fails and is tried again or reported).
   */
  private async write(repos: StoreRepos, changes: Changes, row: JobRow, next: JobMutable): Promise<JobRow> {
    const columns: Partial<JobMutable> = {};
    for (const column of MUTABLE_COLUMNS) {
      if (next[column] !== row[column] || column === 'updated_at') (columns as Record<string, unknown>)[column] = next[column];
    }
    if (!(await repos.jobs.write(row.id, row.status, columns))) {
      throw new Error(`job ${row.id} changed under this transaction (expected ${row.status})`);
    }
    const written = { ...row, ...next };
    changes.jobs.set(row.id, written);
    if (row.batch_id) changes.batches.add(row.batch_id);
    return written;
  }

  private async refreshBatch(repos: StoreRepos, changes: Changes, batchId: string): Promise<void> {
    const batch = await repos.batches.get(batchId);
    if (!batch || batch.status !== 'open') return;
    const items = await repos.jobs.ofBatch(batchId);
    const pending = batch.file_count - items.length;
    if (pending > 0 || countItems(items.map((j) => j.status)).remaining > 0) return;
    await repos.batches.complete(batchId, this.clock().toISOString());
    await this.onBatchComplete(repos, batchId, items);
    changes.batches.add(batchId);
  }

  private async flush(changes: Changes): Promise<void> {
    const viewsWanted = this.events.listenerCount('job-changed') > 0;
    for (const [id, kept] of changes.jobs) {
      const row = kept ?? (await this.store.repos.jobs.get(id));
      if (!row) continue;
      if (this.statusListener) this.emit(() => this.statusListener?.(row));
      if (viewsWanted) {
        const view = await this.views.job(row);
        this.emit(() => this.events.emit('job-changed', view, row.account_id));
      }
    }
    if (this.events.listenerCount('batch-changed') === 0) return;
    for (const id of changes.batches) {
      const row = await this.store.repos.batches.get(id);
      if (!row) continue;
      const view = await this.views.batch(row);
      this.emit(() => this.events.emit('batch-changed', view, row.account_id));
    }
  }

  /** A failing listener must not undo or interrupt the job engine's work (the change is committed already). */
  private emit(fn: () => void): void {
    try {
      fn();
    } catch (error) {
      this.log.info(`job engine: a job event listener threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }
}
