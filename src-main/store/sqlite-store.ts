/**
 * The embedded backend (store.ts): the SQLite file's repositories (repositories.ts, statements prepared once, run
 * synchronously by better-sqlite3), answering settled promises.
 *
 * One connection serves everything, so a transaction must have it to itself: `tx()` takes the connection's lock,
 * opens an IMMEDIATE transaction and runs the function; any other use of the store meanwhile waits for the lock, so
 * nothing another request does between the transaction's awaits lands inside it. Used outside a transaction, a call
 * runs at once when the lock is free (the common case costs one check and a settled promise).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { systemClock, type Clock } from './clock.js';
import type { Db } from './db.js';
import { createDurability, type Durability } from './durability.js';
import { createRepositories, type Repositories } from './repositories.js';
import type { Async, Store, StoreRepos, Tx } from './store.js';

/** A first-come, first-served lock: run() waits its turn. */
class Lock {
  private tail: Promise<void> = Promise.resolve();
  private holders = 0;

  get held(): boolean {
    return this.holders > 0;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    const before = this.tail;
    let release!: () => void;
    this.tail = new Promise((resolve) => (release = resolve));
    this.holders += 1;
    try {
      await before;
      return await fn();
    } finally {
      this.holders -= 1;
      release();
    }
  }
}

const REPO_NAMES = [
  'accounts', 'jobs', 'batches', 'artifacts', 'idempotency', 'ledger', 'settings', 'secrets', 'spending', 'history', 'models',
  'remoteJobs', 'remoteBatches', 'remoteCatalogue', 'segments', 'revisions', 'search', 'watchFiles', 'transcriptAi', 'vocabulary', 'speakers', 'savedVoices',
] as const satisfies readonly (keyof StoreRepos & keyof Repositories)[];

/**
 * `repo` with each method answering a promise. `gate` runs a call: at once inside a transaction, else after any
 * transaction in progress (see the docblock).
 */
function asyncRepo<T extends object>(repo: T, gate: <R>(call: () => R) => Promise<R>): Async<T> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(repo) as (keyof T & string)[]) {
    const member = repo[key];
    out[key] = typeof member === 'function' ? (...args: unknown[]) => gate(() => (member as (...a: unknown[]) => unknown).apply(repo, args)) : member;
  }
  return out as Async<T>;
}

export interface SqliteStore extends Store {
  /**
   * The repositories as they run on the connection, synchronously: for code that must stay synchronous on this
   * backend (the job engine's pass, measured in bench/jobs-throughput.ts), and for tests that look into the file.
   */
  readonly sync: Repositories;
  readonly durability: Durability;
}

export function createSqliteStore(db: Db, file: string, clock: Clock = systemClock): SqliteStore {
  const sync = createRepositories(db, clock);
  const lock = new Lock();
  const durability = createDurability(db, file);
  const settled = <R>(call: () => R): Promise<R> => {
    try {
      return Promise.resolve(call());
    } catch (error) {
      return Promise.reject(error);
    }
  };
  // Which transaction, if any, the current async call chain runs inside: the store's own repos or tx() used there
  // would wait for the lock that chain holds, for ever; they fail at once instead, naming the mistake.
  const insideTx = new AsyncLocalStorage<true>();
  const selfDeadlock = (): Error =>
    new Error("the store's own repos or tx() used inside its transaction would wait for ever: use the transaction's (tx.repos, tx.tx)");
  // Outside a transaction: wait for the one in progress, if any.
  const outside = <R>(call: () => R): Promise<R> => {
    if (!lock.held) return settled(call);
    if (insideTx.getStore()) return Promise.reject(selfDeadlock());
    return lock.run(() => settled(call));
  };
  const build = (gate: <R>(call: () => R) => Promise<R>): StoreRepos =>
    Object.fromEntries(REPO_NAMES.map((name) => [name, asyncRepo(sync[name] as object, gate)])) as unknown as StoreRepos;
  const outsideRepos = build(outside);
  const insideRepos = build(settled);

  /** A savepoint inside the open transaction (it is ours: the lock is held). */
  const savepointTx: Tx = {
    repos: insideRepos,
    async tx(fn) {
      db.exec('SAVEPOINT voxdesk_async');
      try {
        const result = await fn(savepointTx);
        db.exec('RELEASE voxdesk_async');
        return result;
      } catch (error) {
        if (db.inTransaction) db.exec('ROLLBACK TO voxdesk_async; RELEASE voxdesk_async');
        throw error;
      }
    },
  };

  return {
    dialect: 'sqlite',
    clock,
    sync,
    durability,
    repos: outsideRepos,
    tx<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
      if (lock.held && insideTx.getStore()) return Promise.reject(selfDeadlock());
      return lock.run(async () => {
        db.exec('BEGIN IMMEDIATE');
        try {
          const result = await insideTx.run(true, () => fn(savepointTx));
          db.exec('COMMIT');
          return result;
        } catch (error) {
          if (db.inTransaction) db.exec('ROLLBACK');
          throw error;
        }
      });
    },
    // Lock-free: data_version counts other connections' commits, which a transaction of ours neither makes nor hides,
    // so it may be read inside one (a cache asked from the job engine's pass) and beside one.
    othersVersion: () => settled(() => sync.othersCommits.read()),
    othersNow: sync.othersCommits,
    changes: {
      take: () => outside(() => sync.changes.take()),
      unchanged: (token) => outside(() => sync.changes.unchanged(token)),
    },
    flush: () => durability.flush(),
    claimRole(_name, handlers) {
      // One file, one service process: the role is this process's at once (a failure is the caller's to see).
      const gained = handlers.gained().catch(() => undefined);
      return { release: () => gained };
    },
    async close() {
      await lock.run(async () => db.close());
    },
  };
}
