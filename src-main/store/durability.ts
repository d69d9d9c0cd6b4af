/**
 * Commits that a client has been told about survive a power cut (trust review 2, item 13). The database runs WAL
 * with `synchronous = NORMAL`: every commit is written to the WAL file at once, but synced only at checkpoints, so a
 * power loss (not a crash or a kill: the OS still has those writes) can forget the last commits — an accepted job
 * whose 200 was already sent, a charge, a transcript edit.
 *
 * Rather than `synchronous = FULL` on every commit (one fsync each, progress commits included, on the service thread),
 * an answer that acknowledges a change waits for `flush()`: one fsync of the WAL file, off the event loop (libuv's
 * threadpool), shared by every answer waiting at that moment — group commit. fsync of the WAL makes every frame
 * written to it so far durable; SQLite itself syncs the database file at each checkpoint. A flush with nothing new
 * committed by this connection since the last one returns at once.
 */
import { open } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Db } from './db.js';

/** Fsyncs a folder (its entries: a file created in it); where folders cannot be opened (Windows) there is nothing to do. */
async function syncFolder(path: string): Promise<void> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    return;
  }
  try {
    await handle.sync();
  } catch {
    // EISDIR/EPERM on platforms without folder fsync: their file systems journal names themselves
  } finally {
    await handle.close();
  }
}

export interface Durability {
  /** Resolves once every commit this connection has made so far is on disk. */
  flush(): Promise<void>;
  /** Fsyncs done so far (tests, benchmarks). */
  readonly syncs: number;
}

/** `file`: the database file (its WAL is `<file>-wal`); `:memory:` has nothing to make durable. */
export function createDurability(db: Db, file: string): Durability {
  const changes = db.prepare<[], number>('SELECT total_changes()').pluck();
  // The WAL file's own name must be on disk too: the folder holding it is synced once, before the first answer.
  const folderSynced = file === ':memory:' ? Promise.resolve() : syncFolder(dirname(file));
  let durableUpTo = changes.get()!;
  let syncing: { upTo: number; done: Promise<void> } | null = null;
  let syncs = 0;

  async function syncWal(): Promise<void> {
    let handle;
    try {
      handle = await open(`${file}-wal`, 'r');
    } catch (error) {
      // No WAL file: every commit is in the database file, which the checkpoint that removed the WAL synced.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    try {
      await handle.sync();
      syncs += 1;
    } finally {
      await handle.close();
    }
  }

  function startSync(): { upTo: number; done: Promise<void> } {
    const upTo = changes.get()!;
    const done = syncWal().then(() => {
      durableUpTo = Math.max(durableUpTo, upTo);
    });
    const current = { upTo, done };
    syncing = current;
    void done.finally(() => {
      if (syncing === current) syncing = null;
    }).catch(() => undefined);
    return current;
  }

  async function flush(): Promise<void> {
    if (file === ':memory:') return;
    const wanted = changes.get()!;
    await folderSynced;
    for (;;) {
      if (durableUpTo >= wanted) return;
      const current = syncing;
      if (!current) {
        await startSync().done;
        return;
      }
      // A sync under way covers what was committed before it started; a commit made since needs the next one.
      if (current.upTo >= wanted) {
        await current.done;
        return;
      }
      await current.done.catch(() => undefined);
    }
  }

  return {
    flush,
    get syncs() {
      return syncs;
    },
  };
}
