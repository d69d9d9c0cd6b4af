/** Write transactions are always IMMEDIATE: a deferred read that later writes can fail with SQLITE_BUSY under WAL. */
import type { Db } from './db.js';

export function writeTx<T>(db: Db, fn: () => T): T {
  return db.transaction(fn).immediate();
}
