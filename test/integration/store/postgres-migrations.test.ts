/**
 * Migrations on a real PostgreSQL: the baseline makes the schema SQLite's migrations make (table by table, column by
 * column, index by index), recorded under the same versions and names; running again applies nothing; a newer schema
 * is refused; nodes starting at once migrate once; a failing migration leaves nothing behind; every table, even one a
 * later migration adds, sends change notifications.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src-main/store/database.js';
import { MIGRATIONS } from '../../../src-main/store/migrations/index.js';
import type { Migration } from '../../../src-main/store/migrations/migration.js';
import { POSTGRES_BASELINE_VERSION } from '../../../src-main/store/migrations/postgres-baseline.js';
import { applyPostgresMigrations, checkPostgresSchema, migratePostgresDatabase, schemaState } from '../../../src-main/store/postgres/migrate.js';
import { connectionConfig } from '../../../src-main/store/postgres/pool.js';
import { createPostgresStore } from '../../../src-main/store/postgres/postgres-store.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js';

let database: TestDatabase;
let pool: pg.Pool;
beforeEach(async () => {
  database = await createTestDatabase('migrations');
  pool = new pg.Pool({ ...connectionConfig(database.url), max: 8 });
});
afterEach(async () => {
  await pool.end();
  await database.drop();
});

const rowsOf = async <T>(text: string, values: unknown[] = []): Promise<T[]> => (await pool.query({ text, values })).rows as T[];

describe('PostgreSQL migrations', () => {
  it('a new database gets the baseline, recorded as migrations 1–24 under their own names, then nothing more', async () => {
    expect(await applyPostgresMigrations(pool)).toEqual(MIGRATIONS.map((m) => m.version));
    const recorded = await rowsOf<{ version: number; name: string; applied_at: string }>('SELECT version, name, applied_at FROM schema_migrations ORDER BY version');
    expect(recorded.map((r) => [Number(r.version), r.name])).toEqual(MIGRATIONS.map((m) => [m.version, m.name]));
    expect(recorded.every((r) => !Number.isNaN(Date.parse(r.applied_at)))).toBe(true);
    expect(Math.max(...MIGRATIONS.map((m) => m.version))).toBeGreaterThanOrEqual(POSTGRES_BASELINE_VERSION);
    expect(await applyPostgresMigrations(pool)).toEqual([]);
    expect(await rowsOf('SELECT version FROM schema_migrations')).toHaveLength(MIGRATIONS.length);
    await checkPostgresSchema(pool);
    expect(await migratePostgresDatabase(database.url)).toEqual([]);
  });

  it('migrates a database from its URL alone (voxdesk db migrate), then a node told not to migrate starts on it', async () => {
    expect(await migratePostgresDatabase(database.url)).toEqual(MIGRATIONS.map((m) => m.version));
    const node = await createPostgresStore(database.url, { migrate: false });
    await node.repos.settings.set('ok', true);
    await node.close();
  });

  it('refuses a database written by a newer Voxdesk, and a node told not to migrate refuses an older one', async () => {
    await expect(checkPostgresSchema(pool)).rejects.toThrow(/older than this Voxdesk .*voxdesk db migrate/);
    await expect(createPostgresStore(database.url, { migrate: false })).rejects.toThrow(/voxdesk db migrate/);
    await applyPostgresMigrations(pool);
    await pool.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', '2030-01-01T00:00:00.000Z')");
    await expect(applyPostgresMigrations(pool)).rejects.toThrow(/newer Voxdesk \(schema 999, this build knows \d+\)/);
    await expect(checkPostgresSchema(pool)).rejects.toThrow(/newer Voxdesk \(schema 999/);
    await expect(createPostgresStore(database.url)).rejects.toThrow(/newer Voxdesk/);
    expect((await schemaState(pool)).applied).toContain(999);
  });

  it('nodes starting at the same moment migrate once', async () => {
    const stores = await Promise.all(Array.from({ length: 5 }, () => createPostgresStore(database.url, { poolSize: 2 })));
    try {
      expect(await rowsOf('SELECT version FROM schema_migrations ORDER BY version')).toHaveLength(MIGRATIONS.length);
      await stores[0]!.repos.settings.set('works', true);
      expect(await stores[4]!.repos.settings.get('works')).toBe(true);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
    const racing = await Promise.all(Array.from({ length: 4 }, () => applyPostgresMigrations(pool)));
    expect(racing).toEqual([[], [], [], []]);
  });

  it('applies a later migration’s PostgreSQL SQL in its own transaction: a failing one leaves nothing, one without it is refused', async () => {
    await applyPostgresMigrations(pool);
    const later = (version: number, postgres?: string): Migration => ({ version, name: `later-${version}`, up: 'SELECT 1;', ...(postgres === undefined ? {} : { postgres }) });
    const broken = [...MIGRATIONS, later(900, 'CREATE TABLE half_done (x bigint); INSERT INTO no_such_table VALUES (1);')];
    await expect(applyPostgresMigrations(pool, broken)).rejects.toThrow(/no_such_table/);
    expect(await rowsOf("SELECT 1 FROM pg_tables WHERE tablename = 'half_done'")).toEqual([]);
    expect(await rowsOf('SELECT version FROM schema_migrations WHERE version = 900')).toEqual([]);
    await expect(applyPostgresMigrations(pool, [...MIGRATIONS, later(901)])).rejects.toThrow(/migration 901 \(later-901\) has no PostgreSQL SQL/);
    const added = [...MIGRATIONS, later(902, "CREATE TABLE later_things (id text PRIMARY KEY); INSERT INTO later_things VALUES ('a');")];
    expect(await applyPostgresMigrations(pool, added)).toEqual([902]);
    expect(await applyPostgresMigrations(pool, added)).toEqual([]);
    // The table the later migration added notifies like every other.
    const triggers = await rowsOf<{ name: string }>("SELECT tgname AS name FROM pg_trigger WHERE tgrelid = 'later_things'::regclass ORDER BY tgname");
    expect(triggers.map((t) => t.name)).toEqual(['voxdesk_notify', 'voxdesk_notify_truncate']);
    await expect(applyPostgresMigrations(pool, [MIGRATIONS[1]!, MIGRATIONS[0]!])).rejects.toThrow(/increasing order/);
  });

  it('every table of the store notifies its writes, once per transaction, with the writing node’s id', async () => {
    await applyPostgresMigrations(pool);
    const tables = await rowsOf<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'schema_migrations'");
    const withTrigger = await rowsOf<{ name: string }>(
      "SELECT DISTINCT c.relname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE t.tgname = 'voxdesk_notify'",
    );
    expect(withTrigger.map((t) => t.name).sort()).toEqual(tables.map((t) => t.name).sort());
    const listener = new pg.Client(connectionConfig(database.url));
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (n) => heard.push(n.payload ?? ''));
    await listener.query('LISTEN voxdesk_changes');
    const writer = new pg.Client(connectionConfig(database.url, 'voxdesk', 'node one'));
    await writer.connect();
    await writer.query('BEGIN');
    await writer.query("INSERT INTO settings VALUES ('a', '1', 'x'), ('b', '2', 'x')");
    await writer.query("UPDATE settings SET value_json = '3'");
    await writer.query('COMMIT');
    await writer.query("UPDATE settings SET value_json = '4' WHERE key = 'none'"); // no row: no notification
    await writer.query("DELETE FROM settings WHERE key = 'a'");
    await writer.end();
    for (let i = 0; i < 200 && heard.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    await listener.end();
    expect(heard).toEqual(['node one', 'node one']);
  });
});

describe('the PostgreSQL baseline is the SQLite schema at its newest version', () => {
  let dir: string;
  let sqlite: Db;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'voxdesk-schema-'));
    sqlite = openDatabase(join(dir, 'v.db'));
  });
  afterEach(() => {
    sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** SQLite's declared type, as the baseline maps it. */
  const TYPE_OF: Record<string, string> = { TEXT: 'text', INTEGER: 'bigint', REAL: 'double precision', BLOB: 'bytea' };
  /** What PostgreSQL has on top, and why (postgres-baseline.ts). */
  const POSTGRES_ONLY_COLUMNS = new Set(['transcript_search_rows.tsv', 'transcript_search_rows.body_tokens']);
  const POSTGRES_ONLY_INDEXES = new Set(['transcript_search_rows_tsv', 'batch_items_job']);
  /** FTS5's index and its shadow tables: PostgreSQL searches the rows table itself. */
  const SQLITE_ONLY_TABLE = /^transcript_search(_data|_idx|_content|_docsize|_config)?$/;

  it('has every table, column (type, NOT NULL, primary key, collation C) and named index', async () => {
    await applyPostgresMigrations(pool);
    const sqliteTables = (sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[])
      .map((t) => t.name)
      .filter((name) => !SQLITE_ONLY_TABLE.test(name));
    const pgTables = (await rowsOf<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename")).map((t) => t.name);
    expect(pgTables).toEqual(sqliteTables);

    for (const table of sqliteTables) {
      const sqliteColumns = (sqlite.prepare(`SELECT name, type, "notnull", pk FROM pragma_table_info('${table}') ORDER BY cid`).all() as {
        name: string; type: string; notnull: number; pk: number;
      }[]).map((c) => ({ name: c.name, type: TYPE_OF[c.type] ?? c.type, notNull: c.notnull === 1 || c.pk > 0, pk: c.pk > 0 }));
      const pgColumns = await rowsOf<{ name: string; type: string; not_null: boolean; pk: boolean; collation: string | null }>(
        `SELECT a.attname AS name, format_type(a.atttypid, NULL) AS type, a.attnotnull AS not_null,
           EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = a.attrelid AND i.indisprimary AND a.attnum = ANY(i.indkey)) AS pk,
           (SELECT collname FROM pg_collation WHERE oid = a.attcollation) AS collation
         FROM pg_attribute a WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
        [table],
      );
      const comparable = pgColumns.filter((c) => !POSTGRES_ONLY_COLUMNS.has(`${table}.${c.name}`));
      expect(comparable.map((c) => ({ name: c.name, type: c.type, notNull: c.not_null, pk: c.pk })), table).toEqual(
        // SQLite keeps columns in the order they were added; compare by name.
        [...sqliteColumns].sort((a, b) => comparable.findIndex((c) => c.name === a.name) - comparable.findIndex((c) => c.name === b.name)),
      );
      for (const column of comparable.filter((c) => c.type === 'text')) expect(column.collation, `${table}.${column.name}`).toBe('C');
    }

    const sqliteIndexes = (sqlite.prepare("SELECT name, tbl_name AS tbl, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name").all() as {
      name: string; tbl: string; sql: string;
    }[]).filter((i) => !SQLITE_ONLY_TABLE.test(i.tbl));
    const pgIndexes = (await rowsOf<{ name: string; tbl: string; def: string }>(
      `SELECT i.indexname AS name, i.tablename AS tbl, i.indexdef AS def FROM pg_indexes i
       WHERE i.schemaname = current_schema()
         AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname) ORDER BY i.indexname`,
    )).filter((i) => !POSTGRES_ONLY_INDEXES.has(i.name));
    expect(pgIndexes.map((i) => [i.name, i.tbl])).toEqual(sqliteIndexes.map((i) => [i.name, i.tbl]));
    const shape = (text: string): string => {
      const columns = /\(([^)]*)\)/.exec(text)![1]!.replace(/\s+/g, '');
      const where = /WHERE\s+(.*)$/is.exec(text)?.[1] ?? '';
      return `${/UNIQUE/i.test(text) ? 'unique ' : ''}(${columns})${where ? ' where' : ''}`;
    };
    for (const [i, index] of pgIndexes.entries()) expect(shape(index.def), index.name).toBe(shape(sqliteIndexes[i]!.sql));
  });
});
