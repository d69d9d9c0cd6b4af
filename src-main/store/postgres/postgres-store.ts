/**
 * The PostgreSQL backend of the store (store.ts): the same repositories as the SQLite file's, over a connection pool,
 * for a cluster of nodes sharing one database (`--database postgres://…`).
 *
 * - Outside a transaction each repository call runs on whichever pooled connection is free, as its own transaction.
 * - `tx(fn)` takes one connection for the whole function: BEGIN (READ COMMITTED), `fn` with repositories on that
 *   connection, COMMIT — or ROLLBACK when it throws; `t.tx` inside is a savepoint. Several nodes run transactions at
 *   once, so the rules SQLite gets from having one writer are each repository's own: compare-and-set writes, unique
 *   keys with ON CONFLICT DO NOTHING, and advisory locks where a count decides an insert (see each file's docblock).
 * - `othersVersion()` counts the change notifications of other nodes' commits (change-feed.ts); a change stamp is
 *   that with this store's own write count (sql.ts).
 * - `flush()` has nothing to wait for: a PostgreSQL commit is durable when COMMIT answers (the server's fsync).
 *
 * The schema is migrated on open unless told otherwise (then a schema this build cannot use is refused).
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type pg from 'pg';
import { systemClock, type Clock } from '../clock.js';
import type { ChangeToken, Store, StoreRepos, Tx } from '../store.js';
import { startChangeFeed, type ChangeFeed } from './change-feed.js';
import { applyPostgresMigrations, checkPostgresSchema } from './migrate.js';
import { checkout, connectionFailure, createPool } from './pool.js';
import { createPgRepositories } from './repositories.js';
import type { PgShared } from './shared.js';
import { commitWrites, poolSql, serialConnection, transactionSql, type Queryable, type TransactionWrites, type WriteCounter } from './sql.js';
import { claimPostgresRole } from './exclusive-role.js';

export interface PostgresStoreOptions {
  /** The time source rows are stamped with (default: the system clock). */
  clock?: Clock;
  /** Pooled connections at most (default 10), besides the one that listens for changes. */
  poolSize?: number;
  /** Apply pending migrations on open (default true); false: refuse a schema that is not exactly this build's. */
  migrate?: boolean;
  /** This node's id in change notifications (default: host, pid and a random part). */
  nodeId?: string;
  /** `application_name` of its connections (default "voxdesk"). */
  applicationName?: string;
}

export interface PostgresStore extends Store {
  readonly dialect: 'postgres';
  /** This node's id, carried by the change notifications of its commits. */
  readonly nodeId: string;
  /** Calls `listener` on every commit's notification (`own`: this node's); answers the unsubscribe. */
  onCommit(listener: (own: boolean) => void): () => void;
  /** The pool, for the store's own tests and `voxdesk db` (SQL stays in store/). */
  readonly pool: pg.Pool;
}

function defaultNodeId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

export async function createPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
  const clock = options.clock ?? systemClock;
  const nodeId = options.nodeId ?? defaultNodeId();
  const pool = createPool(url, { max: options.poolSize, nodeId, applicationName: options.applicationName });
  let feed: ChangeFeed;
  try {
    if (options.migrate === false) await checkPostgresSchema(pool);
    else await applyPostgresMigrations(pool);
    feed = await startChangeFeed(url, nodeId, options.applicationName);
  } catch (error) {
    await pool.end().catch(() => {});
    throw connectionFailure(url, error);
  }

  const writes: WriteCounter = { n: 0 };
  const shared: PgShared = {
    clock,
    writes,
    othersVersion: () => feed.version(),
    keyMatches: { version: -1, matches: new Map() },
    unmarked: { n: 0 },
    references: null,
  };
  const outside: StoreRepos = createPgRepositories(poolSql(pool, writes), shared);
  let closed = false;

  /** A transaction open on `connection`; savepoints nest one at a time. */
  function openTx(connection: Queryable, state: TransactionWrites, depth: number): Tx {
    const repos = createPgRepositories(transactionSql(connection, writes, state), shared);
    const run = (text: string): Promise<unknown> => connection.query({ text });
    return {
      repos,
      async tx<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
        const name = `voxdesk_sp_${depth}`;
        await run(`SAVEPOINT ${name}`);
        try {
          const result = await fn(openTx(connection, state, depth + 1));
          await run(`RELEASE SAVEPOINT ${name}`);
          return result;
        } catch (error) {
          await run(`ROLLBACK TO SAVEPOINT ${name}`);
          await run(`RELEASE SAVEPOINT ${name}`);
          throw error;
        }
      },
    };
  }

  const changes = {
    take: async (): Promise<ChangeToken> => ({ own: writes.n, others: feed.version() }),
    unchanged: async (token: ChangeToken): Promise<boolean> => writes.n === token.own && feed.version() === token.others,
  };

  return {
    dialect: 'postgres',
    clock,
    nodeId,
    pool,
    repos: outside,
    async tx<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
      if (closed) throw new Error('the store is closed');
      const held = await checkout(pool);
      const connection = serialConnection(held.client);
      const state: TransactionWrites = { changed: false };
      let broken = false;
      try {
        await connection.query({ text: 'BEGIN ISOLATION LEVEL READ COMMITTED' });
        try {
          const result = await fn(openTx(connection, state, 0));
          await connection.query({ text: 'COMMIT' });
          commitWrites(writes, state);
          return result;
        } catch (error) {
          await connection.query({ text: 'ROLLBACK' }).catch(() => {
            broken = true; // the connection is gone; the server rolled the transaction back with it
          });
          throw error;
        }
      } finally {
        held.release(broken);
      }
    },
    othersVersion: async () => feed.version(),
    othersNow: { read: () => feed.version(), within: (run) => run() },
    changes,
    onCommit: (listener) => feed.onChange(listener),
    flush: async () => {},
    claimRole: (name, handlers) => claimPostgresRole(url, options.applicationName ?? 'voxdesk', name, handlers),
    async close() {
      if (closed) return;
      closed = true;
      await feed.close();
      await pool.end();
    },
  };
}
