/**
 * Migrations on PostgreSQL, run once however many nodes start at the same moment: the migrating node holds a
 * session advisory lock (`pg_advisory_lock`) from reading `schema_migrations` to its last commit, so a second node
 * waits, then finds everything applied and applies nothing. As on SQLite (store/migrate.ts) each migration is its own
 * transaction and is recorded in `schema_migrations` under its number, and a node refuses a database whose schema is
 * newer than it knows.
 *
 * A new database gets the baseline (migrations/postgres-baseline.ts: the schema of every migration up to its
 * version at once), recorded as those migrations, each under its own number and name; migrations after it run their
 * `postgres` SQL. Each transaction also installs the change-notification triggers on any table that lacks them
 * (change-feed.ts), so a table a later migration adds notifies like the others without the migration saying so.
 */
import type pg from 'pg';
import type { Migration } from '../migrations/migration.js';
import { MIGRATIONS } from '../migrations/index.js';
import { POSTGRES_BASELINE, POSTGRES_BASELINE_VERSION } from '../migrations/postgres-baseline.js';
import { CHANGE_CHANNEL } from './change-feed.js';
import { checkout, connectionFailure, createPool } from './pool.js';

/** The advisory lock key migrations hold ("vxmigrat" as a number): one value every node agrees on. */
const MIGRATION_LOCK = 0x76786d6967726174n;

export interface PostgresBaseline {
  version: number;
  sql: string;
}

export const BASELINE: PostgresBaseline = { version: POSTGRES_BASELINE_VERSION, sql: POSTGRES_BASELINE };

const CREATE_SCHEMA_MIGRATIONS = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version bigint PRIMARY KEY, name text COLLATE "C" NOT NULL, applied_at text COLLATE "C" NOT NULL)`;

/**
 * Every write sends one notification per transaction on CHANGE_CHANNEL carrying the writing node's id (PostgreSQL
 * folds the same payload sent twice in one transaction into one): a row trigger, so statements that change nothing
 * stay quiet, and a statement trigger for TRUNCATE.
 */
const INSTALL_NOTIFY_TRIGGERS = `
  CREATE OR REPLACE FUNCTION voxdesk_notify_change() RETURNS trigger LANGUAGE plpgsql AS $fn$
  BEGIN
    PERFORM pg_notify('${CHANGE_CHANNEL}', coalesce(current_setting('voxdesk.node', true), ''));
    RETURN NULL;
  END $fn$;
  DO $do$
  DECLARE t record;
  BEGIN
    FOR t IN SELECT c.oid::regclass AS rel, c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p') AND n.nspname = current_schema() AND c.relname <> 'schema_migrations'
          AND NOT EXISTS (SELECT 1 FROM pg_trigger g WHERE g.tgrelid = c.oid AND g.tgname = 'voxdesk_notify')
    LOOP
      EXECUTE format('CREATE TRIGGER voxdesk_notify AFTER INSERT OR UPDATE OR DELETE ON %s FOR EACH ROW EXECUTE FUNCTION voxdesk_notify_change()', t.rel);
      EXECUTE format('CREATE TRIGGER voxdesk_notify_truncate AFTER TRUNCATE ON %s FOR EACH STATEMENT EXECUTE FUNCTION voxdesk_notify_change()', t.rel);
    END LOOP;
  END $do$;
`;

export interface SchemaState {
  /** Versions recorded in schema_migrations, ascending. */
  applied: number[];
  /** The newest version this build knows. */
  known: number;
}

function checkOrder(migrations: readonly Migration[]): void {
  const versions = migrations.map((m) => m.version);
  if (versions.some((v, i) => i > 0 && v <= versions[i - 1]!)) {
    throw new Error(`migrations must be numbered in increasing order: ${versions.join(', ')}`);
  }
}

async function appliedVersions(client: pg.PoolClient): Promise<number[]> {
  const result = await client.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
  return result.rows.map((r) => Number(r.version));
}

/** The database's schema is newer than this build knows: upgrade this node instead (`voxdesk db migrate` exits 2). */
export class NewerSchemaError extends Error {
  constructor(
    readonly newest: number,
    readonly known: number,
  ) {
    super(`the database was written by a newer Voxdesk (schema ${newest}, this build knows ${known})`);
    this.name = 'NewerSchemaError';
  }
}

function refuseNewer(applied: readonly number[], known: number): void {
  const newest = Math.max(0, ...applied);
  if (newest > known) throw new NewerSchemaError(newest, known);
}

async function inTransaction(client: pg.PoolClient, fn: () => Promise<void>): Promise<void> {
  await client.query('BEGIN');
  try {
    await fn();
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

/** What the database holds and what this build knows, without changing anything. */
export async function schemaState(pool: pg.Pool, migrations: readonly Migration[] = MIGRATIONS): Promise<SchemaState> {
  const held = await checkout(pool);
  const { client } = held;
  try {
    const exists = await client.query<{ found: string | null }>("SELECT to_regclass('schema_migrations')::text AS found");
    const applied = exists.rows[0]?.found ? await appliedVersions(client) : [];
    return { applied, known: Math.max(0, ...migrations.map((m) => m.version)) };
  } finally {
    held.release();
  }
}

/**
 * Applies what is pending under the migration lock; answers the versions applied (the baseline's counted as all the
 * migrations it stands for). Throws for a schema newer than `migrations` know, and for a migration after the
 * baseline without PostgreSQL SQL.
 */
export async function applyPostgresMigrations(
  pool: pg.Pool,
  migrations: readonly Migration[] = MIGRATIONS,
  baseline: PostgresBaseline = BASELINE,
): Promise<number[]> {
  checkOrder(migrations);
  const known = Math.max(0, ...migrations.map((m) => m.version));
  const held = await checkout(pool);
  const { client } = held;
  let broken = false;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK.toString()]);
    try {
      await client.query(CREATE_SCHEMA_MIGRATIONS);
      const done = new Set(await appliedVersions(client));
      refuseNewer([...done], known);
      const applied: number[] = [];
      const record = (m: Migration): Promise<unknown> =>
        client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [m.version, m.name, new Date().toISOString()]);
      if (done.size === 0) {
        const covered = migrations.filter((m) => m.version <= baseline.version);
        await inTransaction(client, async () => {
          await client.query(baseline.sql);
          await client.query(INSTALL_NOTIFY_TRIGGERS);
          for (const m of covered) await record(m);
        });
        for (const m of covered) {
          applied.push(m.version);
          done.add(m.version);
        }
      }
      for (const migration of migrations) {
        if (done.has(migration.version)) continue;
        if (migration.version <= baseline.version) {
          throw new Error(`migration ${migration.version} (${migration.name}) is missing from this PostgreSQL database, which the baseline should have made; it cannot be applied on PostgreSQL`);
        }
        const sql = migration.postgres;
        if (sql === undefined) throw new Error(`migration ${migration.version} (${migration.name}) has no PostgreSQL SQL (its postgres field)`);
        await inTransaction(client, async () => {
          await client.query(sql);
          await client.query(INSTALL_NOTIFY_TRIGGERS);
          await record(migration);
        });
        applied.push(migration.version);
      }
      return applied;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK.toString()]).catch(() => {
        broken = true; // the session (and with it the lock) is gone
      });
    }
  } catch (error) {
    broken ||= !(await client.query('SELECT 1').then(() => true, () => false));
    throw error;
  } finally {
    held.release(broken);
  }
}

/** For a node told not to migrate: refuses a schema newer than it knows, or one that misses migrations it needs. */
export async function checkPostgresSchema(pool: pg.Pool, migrations: readonly Migration[] = MIGRATIONS): Promise<void> {
  const { applied, known } = await schemaState(pool, migrations);
  refuseNewer(applied, known);
  const done = new Set(applied);
  const missing = migrations.filter((m) => !done.has(m.version)).map((m) => m.version);
  if (missing.length > 0) {
    throw new Error(`the database's schema is older than this Voxdesk (migrations ${missing.join(', ')} are not applied): run voxdesk db migrate`);
  }
}

/**
 * `voxdesk db migrate`: applies what is pending to the database at `url` (under the same lock as a starting node)
 * and answers the versions applied; throws for a schema newer than this build knows.
 */
export async function migratePostgresDatabase(url: string): Promise<number[]> {
  return withMigrationPool(url, (pool) => applyPostgresMigrations(pool));
}

/** `voxdesk db status`: what the database at `url` holds and what this build knows, changing nothing. */
export async function postgresSchemaState(url: string): Promise<SchemaState> {
  return withMigrationPool(url, (pool) => schemaState(pool));
}

async function withMigrationPool<T>(url: string, fn: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const pool = createPool(url, { max: 1, nodeId: 'voxdesk-db-migrate', applicationName: 'voxdesk db migrate' });
  try {
    return await fn(pool);
  } catch (error) {
    throw connectionFailure(url, error);
  } finally {
    await pool.end();
  }
}
