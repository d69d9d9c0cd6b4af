/**
 * Which store a service (or `voxdesk worker`, `voxdesk keys`, `voxdesk db`) runs on, decided in one place:
 * `--database postgres://…` or `VOXDESK_DATABASE_URL` → the shared PostgreSQL database of a cluster; no URL → the
 * SQLite file `voxdesk.db` in the data dir, exactly as the desktop app, `npm start` and a plain `voxdesk serve` always
 * did. Anything else given as a URL is refused with what is accepted, before anything is opened.
 *
 * On PostgreSQL the node still opens its own SQLite file in the data dir for the one part not yet on the shared
 * store: the language-model settings of AI actions, with the secrets they seal (docs/ai-actions.md). Hosted
 * forwarding is the cluster's (its settings, sealed key and state are in the shared store; docs/cluster.md).
 */
import { join } from 'node:path';
import type { Clock } from '../store/clock.js';
import { openDatabase, type Db } from '../store/database.js';
import type { Durability } from '../store/durability.js';
import { createPostgresStore, type PostgresStore } from '../store/postgres/postgres-store.js';
import type { Repositories } from '../store/repositories.js';
import { createSqliteStore } from '../store/sqlite-store.js';
import { startWalCheckpointer } from '../store/wal-checkpointer.js';
import type { Store } from '../store/store.js';
import type { Log } from '../common/log.js';

export const DATABASE_URL_ENV = 'VOXDESK_DATABASE_URL';

/**
 * The database URL in force: the option, else $VOXDESK_DATABASE_URL, else null (the SQLite file). An empty value
 * means none. A URL that is not `postgres://` or `postgresql://` throws an Error saying what is accepted (a start-up option: the command prints it and exits).
 */
export function chooseDatabaseUrl(option: string | undefined, env: NodeJS.ProcessEnv = process.env): string | null {
  const given = option?.trim() || env[DATABASE_URL_ENV]?.trim() || '';
  if (!given) return null;
  if (!/^postgres(ql)?:\/\//i.test(given)) {
    const from = option?.trim() ? '--database' : DATABASE_URL_ENV;
    throw new Error(
      `${from} must be a PostgreSQL URL (postgres://USER:PASSWORD@HOST:PORT/DATABASE); leave it out to use the SQLite file in the data dir`,
    );
  }
  return given;
}

export interface OpenedStore {
  /** The shared store every repository of the service goes through. */
  readonly store: Store;
  /** The SQLite file of this node (the whole store without a URL; on PostgreSQL the per-node parts above). */
  readonly db: Db;
  /** That file's synchronous repositories (the language-model settings and their secrets; tests look into the file). */
  readonly local: Repositories;
  /** Makes what this process committed durable before an answer acknowledges it (PostgreSQL: its COMMIT did). */
  readonly durability: Durability;
  /** PostgreSQL only: the store with its change notifications (cluster wake-ups, `voxdesk db`). */
  readonly postgres: PostgresStore | null;
  /** Closes the store and the node's file. */
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  dataDir: string;
  /** From chooseDatabaseUrl: null for the SQLite file. */
  databaseUrl: string | null;
  clock?: Clock;
  /** PostgreSQL pool size (default 10). */
  poolSize?: number;
  /**
   * SQLite: checkpoint the WAL in a thread of its own instead of inside commits (store/wal-checkpointer.ts), for a
   * long-lived service; a short command leaves SQLite's automatic checkpoint.
   */
  checkpointInThread?: boolean;
  log?: Log;
}

const COMMITTED: Durability = { flush: async () => {}, syncs: 0 };

export async function openStore(options: OpenStoreOptions): Promise<OpenedStore> {
  const file = join(options.dataDir, 'voxdesk.db');
  const db = openDatabase(file);
  const sqlite = createSqliteStore(db, file, options.clock);
  if (!options.databaseUrl) {
    const checkpointer = options.checkpointInThread ? await startWalCheckpointer(db, file, options.log ? { log: options.log } : {}) : null;
    return {
      store: sqlite,
      db,
      local: sqlite.sync,
      durability: sqlite.durability,
      postgres: null,
      close: async () => {
        await checkpointer?.stop();
        if (db.open) db.close();
      },
    };
  }
  let postgres: PostgresStore;
  try {
    postgres = await createPostgresStore(options.databaseUrl, {
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.poolSize ? { poolSize: options.poolSize } : {}),
    });
  } catch (error) {
    db.close();
    throw error;
  }
  return {
    store: postgres,
    db,
    local: sqlite.sync,
    durability: COMMITTED,
    postgres,
    async close() {
      await postgres.close();
      if (db.open) db.close();
    },
  };
}
