/**
 * How the PostgreSQL repositories run their statements: on the pool (each statement its own transaction, on whichever
 * connection is free) or on the connection of an open transaction (store `tx`). Statements are named, so each
 * connection parses and plans one once and then only binds values (node-postgres prepares a named statement on its
 * first use on a connection), as the SQLite repositories prepare theirs once.
 *
 * `run` is a write: it moves this store's own-writes count (the `own` half of a change stamp, as SQLite's
 * `total_changes()` moves with every row this connection writes, inside a transaction too). `atomic` gives a
 * repository method of several statements one transaction: its own on the pool, or the open one it is part of.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';

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

function sqlOn(on: Queryable, writes: WriteCounter, inTransaction: boolean, begin: () => Promise<pg.PoolClient>): Sql {
  const sql: Sql = {
    inTransaction,
    all: async <T>(text: string, values?: readonly unknown[]) => (await query<T>(on, text, values)).rows,
    one: async <T>(text: string, values?: readonly unknown[]) => (await query<T>(on, text, values)).rows[0],
    async run(text, values) {
      writes.n++;
      try {
        return (await query(on, text, values)).rowCount ?? 0;
      } finally {
        writes.n++;
      }
    },
    async write<T>(text: string, values?: readonly unknown[]) {
      writes.n++;
      try {
        return (await query<T>(on, text, values)).rows;
      } finally {
        writes.n++;
      }
    },
    async atomic(fn) {
      if (inTransaction) return fn(sql);
      const client = await begin();
      const connection = serialConnection(client);
      let broken = false;
      try {
        await client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
        const result = await fn(sqlOn(connection, writes, true, begin));
        await connection.query({ text: 'COMMIT' });
        return result;
      } catch (error) {
        try {
          await connection.query({ text: 'ROLLBACK' });
        } catch {
          broken = true; // the connection is gone: do not give it back to the pool
        }
        throw error;
      } finally {
        client.release(broken);
      }
    },
  };
  return sql;
}

/** Statements on the pool: each its own transaction. */
export function poolSql(pool: pg.Pool, writes: WriteCounter): Sql {
  return sqlOn(pool, writes, false, () => pool.connect());
}

/** Statements on the connection of an open transaction (a serialConnection). */
export function transactionSql(connection: Queryable, writes: WriteCounter): Sql {
  return sqlOn(connection, writes, true, () => Promise.reject(new Error('a transaction does not open another')));
}
