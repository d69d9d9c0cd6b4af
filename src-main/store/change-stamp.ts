/**
 * "Has anything in the database changed since I last looked?" for read caches that must never serve stale rows.
 *
 * Two counters together see every change a read on this connection could observe: `total_changes()` counts the rows
 * this connection inserted, updated or deleted (trigger changes included; it moves inside a transaction too, so a
 * rolled-back write only costs a needless miss), and `PRAGMA data_version` moves whenever another connection commits
 * (worker processes, `voxdesk keys revoke`, a second instance on the same file). While both stand still, a row read
 * earlier is still the row the database holds. Checking costs about 3 µs; the reads it saves cost ten times that.
 */
import type { Db } from './db.js';
import { createOthersCommits, type OthersCommits } from './others-commits.js';

export interface ChangeStamp {
  /** True when nothing was written since `stamp` was taken (by this connection or any other). */
  unchanged(stamp: Stamp): boolean;
  /** The database's state now, to keep beside a cached value. */
  take(): Stamp;
}

export interface Stamp {
  readonly own: number;
  readonly others: number;
}

/** `others` is shared with the connection's other caches (one read per request, others-commits.ts). */
export function createChangeStamp(db: Db, others: OthersCommits = createOthersCommits(db)): ChangeStamp {
  const own = db.prepare<[], number>('SELECT total_changes()').pluck();
  return {
    take: () => ({ own: own.get()!, others: others.read() }),
    unchanged: (stamp) => own.get() === stamp.own && others.read() === stamp.others,
  };
}
