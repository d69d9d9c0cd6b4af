import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/store/database.js';
import { applyMigrations, appliedVersions } from '../../../src-main/store/migrate.js';
import { MIGRATIONS } from '../../../src-main/store/migrations/index.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-migrate-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const tables = (db: Database.Database): string[] =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);

describe('migrations on a real file', () => {
  it('creates a fresh database with every table and records each migration', () => {
    const db = openDatabase(join(dir, 'a.db'));
    expect(tables(db)).toEqual(
      expect.arrayContaining(['accounts', 'api_keys', 'artifacts', 'batch_items', 'batches', 'idempotency_keys', 'jobs', 'ledger', 'schema_migrations', 'settings']),
    );
    expect(appliedVersions(db)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    db.close();
  });

  it('re-opening applies nothing again', () => {
    const file = join(dir, 'b.db');
    openDatabase(file).close();
    const db = openDatabase(file);
    expect(applyMigrations(db, MIGRATIONS)).toEqual([]);
    expect(db.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get()).toEqual({ n: MIGRATIONS.length });
    db.close();
  });

  it('refuses a database written by a newer version', () => {
    const file = join(dir, 'c.db');
    const db = openDatabase(file);
    db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', '2030-01-01T00:00:00.000Z')").run();
    db.close();
    expect(() => openDatabase(file)).toThrow(/newer Voxdesk \(schema 999/);
  });

  it('a failing migration rolls back and records nothing', () => {
    const file = join(dir, 'd.db');
    openDatabase(file).close();
    const db = new Database(file);
    const broken = [
      ...MIGRATIONS,
      { version: 900, name: 'broken', up: 'CREATE TABLE half_done (x INTEGER); INSERT INTO no_such_table VALUES (1);' },
    ];
    expect(() => applyMigrations(db, broken)).toThrow(/no_such_table/);
    expect(tables(db)).not.toContain('half_done');
    expect(appliedVersions(db)).toEqual(MIGRATIONS.map((m) => m.version));
    db.close();
  });

  it('refuses migrations out of order', () => {
    const db = new Database(':memory:');
    expect(() => applyMigrations(db, [{ version: 2, name: 'b', up: '' }, { version: 1, name: 'a', up: '' }])).toThrow(/increasing order/);
    db.close();
  });
});
