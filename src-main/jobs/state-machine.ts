/**
 * The one place a job's status changes. Every change is checked against common/job-states.ts's table inside the
 * caller's write transaction, applies the field rules of each status (started_at only when running, finished_at
 * only when terminal, error_code cleared on start, a pause request ends with the run), completes the job's batch
 * when its last item finishes, and notes what changed so events are emitted after the commit.
 *
 * Progress is null when a job starts or goes back to the queue, except for a job with committed segments
 * (checkpoints): it continues from them, so its progress is kept.
 *
 * What it costs per change matters (bench/jobs-throughput.ts): the row as written is kept for the events instead of
 * being read again, a view (which reads artifacts and segments) is built only when someone listens to `job-changed`
 * / `batch-changed`, and `statusListener` learns each committed status without any view. A tx() inside a tx() is
 * a savepoint of the outer one: its changes are emitted when the outer one commits (several jobs settled together).
 */
import { EventEmitter } from 'node:events';
import { canTransition, countItems, isTerminal, type JobStatus } from '../common/job-states.js';
import type { JobEvents } from './job-service-types.js';
import type { Clock } from '../store/clock.js';
import type { JobMutable, JobRow } from '../store/jobs-repo.js';
import type { Repositories } from '../store/repositories.js';
import { writeTx } from '../store/transaction.js';
import type { Views } from './views.js';

export type JobPatch = Partial<Omit<JobMutable, 'status' | 'updated_at'>>;

export class TransitionError extends Error {
  constructor(
    readonly jobId: string,
    readonly from: JobStatus,
    readonly to: JobStatus,
  ) {
    super(`job ${jobId}: ${from} → ${to} is not an allowed transition`);
    this.name = 'TransitionError';
  }
}

/** In a fixed order, so each set of changed columns is one prepared UPDATE (jobs-repo.ts). */
const MUTABLE_COLUMNS: readonly (keyof JobMutable)[] = [
  'status', 'error_code', 'error_message', 'duration_seconds', 'result_json', 'progress', 'attempts', 'cancel_requested',
  'pause_requested', 'claimed_by', 'lease_expires_at', 'deadline_at', 'reserved_usd_micro', 'started_at', 'finished_at', 'updated_at',
];

function mutable(row: JobRow): JobMutable {
  const { status, error_code, error_message, duration_seconds, result_json, progress, attempts, cancel_requested, pause_requested, claimed_by, lease_expires_at, deadline_at, reserved_usd_micro, started_at, finished_at, updated_at } = row;
  return { status, error_code, error_message, duration_seconds, result_json, progress, attempts, cancel_requested, pause_requested, claimed_by, lease_expires_at, deadline_at, reserved_usd_micro, started_at, finished_at, updated_at };
}

export class StateMachine {
  readonly events = new EventEmitter<JobEvents>();
  /** Called after each commit for every job it changed, with the row as committed (no view built). */
  statusListener: ((row: JobRow) => void) | undefined;
  /** Jobs changed in the open transaction: the row as last written (null: touched, read again after the commit). */
  private changedJobs = new Map<string, JobRow | null>();
  private changedBatches = new Set<string>();
  /** How many tx() calls are open: one inside another is a savepoint of the outermost. */
  private depth = 0;

  constructor(
    private readonly repos: Repositories,
    private readonly clock: Clock,
    private readonly views: Views,
    /** Called inside the transaction when a batch completes (billing). */
    private readonly onBatchComplete: (batchId: string, items: JobRow[]) => void,
  ) {
    this.events.setMaxListeners(0);
  }

  /** Runs `fn` in an immediate transaction, then emits job-changed / batch-changed for what it changed. */
  tx<T>(fn: () => T): T {
    if (this.depth > 0) return this.savepoint(fn);
    // Inside a transaction opened elsewhere (a watch folder's bookkeeping): emitted when this part is done, as before.
    let result: T;
    this.depth++;
    try {
      result = writeTx(this.repos.db, fn);
    } catch (error) {
      this.changedJobs.clear();
      this.changedBatches.clear();
      throw error;
    } finally {
      this.depth--;
    }
    this.flush();
    return result;
  }

  /** A tx() inside another: rolled back alone when it throws, emitted with the outer one when that commits. */
  private savepoint<T>(fn: () => T): T {
    const jobs = new Map(this.changedJobs);
    const batches = new Set(this.changedBatches);
    try {
      return writeTx(this.repos.db, fn);
    } catch (error) {
      this.changedJobs = jobs;
      this.changedBatches = batches;
      throw error;
    }
  }

  /** Moves a job to `to` (inside tx()). Returns the row as written. */
  transition(row: JobRow, to: JobStatus, patch: JobPatch = {}): JobRow {
    this.assertInTx();
    if (!canTransition(row.status, to)) throw new TransitionError(row.id, row.status, to);
    const now = this.clock().toISOString();
    const next: JobMutable = { ...mutable(row), ...patch, status: to, updated_at: now };
    next.pause_requested = 0;
    // A job without progress keeps none: its segments need not be counted (one read fewer for every claim).
    const kept = (): number | null =>
      'progress' in patch ? (patch.progress ?? null) : row.progress !== null && this.repos.segments.count(row.id) > 0 ? row.progress : null;
    if (to === 'running') {
      next.started_at = now;
      next.finished_at = null;
      next.error_code = null;
      next.error_message = null;
      next.progress = kept();
      next.attempts = row.attempts + 1;
    } else if (to === 'queued') {
      next.started_at = null;
      next.finished_at = null;
      next.progress = kept();
      next.claimed_by = null;
      next.error_code = patch.error_code ?? null;
      next.error_message = patch.error_message ?? null;
    } else {
      next.finished_at = now;
      next.claimed_by = null;
      if (to === 'succeeded') {
        next.progress = 1;
        next.error_code = null;
        next.error_message = null;
      }
    }
    const written = this.write(row, next);
    if (isTerminal(to) && row.batch_id) this.refreshBatch(row.batch_id);
    return written;
  }

  /** Changes fields without changing the status (progress, duration, waiting codes, cancel request). */
  patch(row: JobRow, patch: JobPatch): JobRow {
    this.assertInTx();
    const next: JobMutable = { ...mutable(row), ...patch, status: row.status, updated_at: this.clock().toISOString() };
    return this.write(row, next);
  }

  /**
   * Only the columns whose value changes are written (and updated_at): an UPDATE maintains only the indexes on the
   * columns it sets. The row was read in this transaction, so the merged row is the row as stored.
   */
  private write(row: JobRow, next: JobMutable): JobRow {
    const changes: Partial<JobMutable> = {};
    for (const column of MUTABLE_COLUMNS) {
      if (next[column] !== row[column] || column === 'updated_at') (changes as Record<string, unknown>)[column] = next[column];
    }
    if (!this.repos.jobs.write(row.id, row.status, changes)) {
      throw new Error(`job ${row.id} changed under this transaction (expected ${row.status})`);
    }
    const written = { ...row, ...next };
    this.changedJobs.set(row.id, written);
    if (row.batch_id) this.changedBatches.add(row.batch_id);
    return written;
  }

  private refreshBatch(batchId: string): void {
    const batch = this.repos.batches.get(batchId);
    if (!batch || batch.status !== 'open') return;
    const items = this.repos.jobs.ofBatch(batchId);
    const pending = batch.file_count - items.length;
    if (pending > 0 || countItems(items.map((j) => j.status)).remaining > 0) return;
    this.repos.batches.complete(batchId, this.clock().toISOString());
    this.onBatchComplete(batchId, items);
    this.changedBatches.add(batchId);
  }

  /** Marks a job/batch as changed outside transition/patch (e.g. just inserted: the row as inserted, or its id). */
  touch(job: string | JobRow | null, batchId: string | null): void {
    if (typeof job === 'object' && job !== null) this.changedJobs.set(job.id, job);
    else if (job && !this.changedJobs.has(job)) this.changedJobs.set(job, null);
    if (batchId) this.changedBatches.add(batchId);
  }

  private assertInTx(): void {
    if (!this.repos.db.inTransaction) throw new Error('job status changes must run inside StateMachine.tx()');
  }

  private flush(): void {
    const jobs = [...this.changedJobs];
    const batches = [...this.changedBatches];
    this.changedJobs = new Map();
    this.changedBatches.clear();
    for (const [id, kept] of jobs) {
      const row = kept ?? this.repos.jobs.get(id);
      if (!row) continue;
      if (this.statusListener) this.emit(() => this.statusListener?.(row));
      if (this.events.listenerCount('job-changed') > 0) this.emit(() => this.events.emit('job-changed', this.views.job(row), row.account_id));
    }
    if (this.events.listenerCount('batch-changed') === 0) return;
    for (const id of batches) {
      const row = this.repos.batches.get(id);
      if (row) this.emit(() => this.events.emit('batch-changed', this.views.batch(row), row.account_id));
    }
  }

  /** A failing listener must not undo or interrupt the job engine's work (the change is committed already). */
  private emit(fn: () => void): void {
    try {
      fn();
    } catch (error) {
      process.emitWarning(`a job event listener threw: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    }
  }
}
