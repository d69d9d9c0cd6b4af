/** Opens the SQLite job store: WAL, a busy timeout, foreign keys, and every pending migration applied. */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { applyMigrations } from './migrate.js';
import { MIGRATIONS } from './migrations/index.js';
import type { Db } from './db.js';

export type { Db } from './db.js';

export interface OpenOptions {
  /** How long a writer waits for another connection's lock before SQLITE_BUSY (default 5000 ms). */
  busyTimeoutMs?: number;
  readonly?: boolean;
}

export function openDatabase(file: string, options: OpenOptions = {}): Db {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file, { readonly: options.readonly ?? false });
  db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
  if (!options.readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    applyMigrations(db, MIGRATIONS);
  }
  return db;
}
