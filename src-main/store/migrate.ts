/** Applies numbered migrations in order, each in its own immediate transaction, recording each one applied. */
import type { Db } from './db.js';
import type { Migration } from './migrations/migration.js';

export function appliedVersions(db: Db): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  return db
    .prepare<[], { version: number }>('SELECT version FROM schema_migrations ORDER BY version')
    .all()
    .map((r) => r.version);
}

export function applyMigrations(db: Db, migrations: readonly Migration[]): number[] {
  const versions = migrations.map((m) => m.version);
  if (versions.some((v, i) => i > 0 && v <= versions[i - 1]!)) {
    throw new Error(`migrations must be numbered in increasing order: ${versions.join(', ')}`);
  }
  const done = new Set(appliedVersions(db));
  const newest = Math.max(0, ...done);
  const known = Math.max(0, ...versions);
  if (newest > known) {
    throw new Error(`the database was written by a newer Voxdesk (schema ${newest}, this build knows ${known})`);
  }
  const applied: number[] = [];
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const migration of migrations) {
    if (done.has(migration.version)) continue;
    db.transaction(() => {
      db.exec(migration.up);
      record.run(migration.version, migration.name, new Date().toISOString());
    }).immediate();
    applied.push(migration.version);
  }
  return applied;
}
