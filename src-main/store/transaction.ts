/**
 * Write transactions are always IMMEDIATE: a deferred read that later writes can fail with SQLITE_BUSY under WAL.
 * One inside another is a savepoint of the outer one (rolled back alone when it throws).
 *
 * Same semantics as better-sqlite3's `db.transaction(fn).immediate()`, with the BEGIN / COMMIT / SAVEPOINT statements
 * prepared once per connection: that helper builds four wrapper functions and their properties on every call, which
 * the job engine (several transactions per job) paid for on each one (bench/jobs-throughput.ts).
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from './db.js';

interface Controller {
  begin: Statement;
  commit: Statement;
  rollback: Statement;
  savepoint: Statement;
  release: Statement;
  rollbackTo: Statement;
}

const controllers = new WeakMap<Db, Controller>();

function controllerOf(db: Db): Controller {
  let controller = controllers.get(db);
  if (!controller) {
    controller = {
      begin: db.prepare('BEGIN IMMEDIATE'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
      savepoint: db.prepare('SAVEPOINT voxdesk_tx'),
      release: db.prepare('RELEASE voxdesk_tx'),
      rollbackTo: db.prepare('ROLLBACK TO voxdesk_tx'),
    };
    controllers.set(db, controller);
  }
  return controller;
}

export function writeTx<T>(db: Db, fn: () => T): T {
  const c = controllerOf(db);
  const nested = db.inTransaction;
  if (nested) c.savepoint.run();
  else c.begin.run();
  try {
    const result = fn();
    if (result && typeof (result as { then?: unknown }).then === 'function') {
      throw new TypeError('Transaction function cannot return a promise');
    }
    (nested ? c.release : c.commit).run();
    return result;
  } catch (error) {
    // SQLite may have rolled the transaction back already (some errors do): only undo what is still open.
    if (db.inTransaction) {
      if (nested) {
        c.rollbackTo.run();
        c.release.run();
      } else {
        c.rollback.run();
      }
    }
    throw error;
  }
}
