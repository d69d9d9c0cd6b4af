/**
 * How the PostgreSQL repositories run their statements: on the pool (each statement its own transaction, on whichever
 * connection is free) or on the connection of an open transaction (store `tx`). Statements are named, so each
 * connection parses and plans one once and then only binds values (node-postgres prepares a named statement on its
 * first use on a connection), as the SQLite repositories prepare theirs once.
 *
 * `run` and `write` are writes: one that changes rows moves this store's own-writes count (the `own` half of a change
 * stamp, as SQLite's `total_changes()` moves with every row this connection writes, inside a transaction too, and not
 * for a write that changed nothing). `atomic` gives a repository method of several statements one transaction: its
 * own on the pool, or the open one it is part of.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { checkout, type Checkout } from './pool.js';

export interface Sql {
  /** Inside a store transaction (the statements share its connection). */
  readonly inTransaction: boolean;
  all<T>(text: string, values?: readonly unknown[]): Promise<T[]>;
  one<T>(text: string, values?: readonly unknown[]): Promise<T | undefined>;
  /** A write; answers how many rows it changed. */
  run(text: string, values?: readonly unknown[]): Promise<number>;
  /** A write with RETURNING; answers the rows. */
  write<T>(text: string, values?: readonly unknown[]): Promise<T[]>;
  /** Runs `fn` as one transaction: the open one, or one of its own on a pooled connection. */
  atomic<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` once what was written so far is visible to every connection: at once outside a transaction (each
   * statement has committed when it answers), after the COMMIT inside one. For memory that must move with a commit
   * (a cache dropped, a stamp moved), since another connection of this store can read between a write and its commit.
   */
  afterCommit(fn: () => void): void;
}

/** Counts this store's writes (never decreases). */
export interface WriteCounter {
  n: number;
}

/** What statements run on: the pool, or one connection whose statements go one at a time (serialConnection). */
export interface Queryable {
  query(config: pg.QueryConfig): Promise<pg.QueryResult>;
}

/**
 * A transaction's connection, its statements sent one after another: a function that starts several repository
 * calls at once (Promise.all) inside a transaction gets them in the order they were made, never two at once on the
 * wire (node-postgres queues them too, but calls doing so deprecated).
 */
export function serialConnection(client: pg.PoolClient): Queryable {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    query(config) {
      const result = tail.then(() => client.query(config));
      tail = result.catch(() => {});
      return result;
    },
  };
}

const names = new Map<string, string>();

/** A stable statement name per text: the same on every connection, so each prepares it once. */
function statementName(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `vx_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    names.set(text, name);
  }
  return name;
}

async function query<T>(on: Queryable, text: string, values: readonly unknown[] | undefined): Promise<pg.QueryResult & { rows: T[] }> {
  return (await on.query({ name: statementName(text), text, values: values as unknown[] | undefined })) as pg.QueryResult & { rows: T[] };
}

/** One open transaction's writes: whether a statement changed a row (its commit then moves the count again). */
export interface TransactionWrites {
  changed: boolean;
  /** What runs once it has committed (Sql.afterCommit). */
  afterCommit?: (() => void)[];
}

/**
 * Moves the write count after a statement that changed rows. Inside a transaction the count moves again when it
 * commits (commitWrites): another connection of this store may read between the statement and the commit, see the
 * rows as they were and take a stamp, which must not stay valid once the commit shows the new ones.
 */
function changed(writes: WriteCounter, tx: TransactionWrites | null, rows: number | null): void {
  if (!rows) return;
  writes.n++;
  if (tx) tx.changed = true;
}

/** After a transaction's COMMIT answered: the count moves if it changed anything, and its afterCommit calls run. */
export function commitWrites(writes: WriteCounter, tx: TransactionWrites): void {
  if (tx.changed) writes.n++;
  for (const fn of tx.afterCommit?.splice(0) ?? []) fn();
}

function sqlOn(on: Queryable, writes: WriteCounter, tx: TransactionWrites | null, begin: () => Promise<Checkout>): Sql {
  const sql: Sql = {
    inTransaction: tx !== null,
    all: async <T>(text: string, values?: readonly unknown[]) => (await query<T>(on, text, values)).rows,
    one: async <T>(text: string, values?: readonly unknown[]) => (await query<T>(on, text, values)).rows[0],
    async run(text, values) {
      const result = await query(on, text, values);
      changed(writes, tx, result.rowCount);
      return result.rowCount ?? 0;
    },
    async write<T>(text: string, values?: readonly unknown[]) {
      const result = await query<T>(on, text, values);
      changed(writes, tx, result.rowCount);
      return result.rows;
    },
    afterCommit(fn) {
      if (tx) (tx.afterCommit ??= []).push(fn);
      else fn();
    },
    async atomic(fn) {
      if (tx) return fn(sql);
      const held = await begin();
      const connection = serialConnection(held.client);
      const own: TransactionWrites = { changed: false };
      let broken = false;
      try {
        await connection.query({ text: 'BEGIN ISOLATION LEVEL READ COMMITTED' });
        const result = await fn(sqlOn(connection, writes, own, begin));
        await connection.query({ text: 'COMMIT' });
        commitWrites(writes, own);
        return result;
      } catch (error) {
        try {
          await connection.query({ text: 'ROLLBACK' });
        } catch {
          broken = true; // the connection is gone: do not give it back to the pool
        }
        throw error;
      } finally {
        held.release(broken);
      }
    },
  };
  return sql;
}

/** Statements on the pool: each its own transaction. */
export function poolSql(pool: pg.Pool, writes: WriteCounter): Sql {
  return sqlOn(pool, writes, null, () => checkout(pool));
}

/** Statements on the connection of an open transaction (a serialConnection); `tx` records whether they changed rows. */
export function transactionSql(connection: Queryable, writes: WriteCounter, tx: TransactionWrites): Sql {
  return sqlOn(connection, writes, tx, () => Promise.reject(new Error('a transaction does not open another')));
}
