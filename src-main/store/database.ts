/**
 * Opens the SQLite job store: WAL, a busy timeout, foreign keys, and every pending migration applied. The file is
 * private (0600, in a 0700 folder; SQLite gives the -wal and -shm files the database file's mode), and deleted
 * content is overwritten with zeros (secure_delete), so a value moved out of a row — a plain key sealed since — does
 * not linger in free pages.
 */
import Database from 'better-sqlite3';
import { dirname } from 'node:path';
import { applyMigrations } from './migrate.js';
import { electronAddonPath } from '../platform/native-addons.js';
import { MIGRATIONS } from './migrations/index.js';
import type { Db } from './db.js';
import { ensurePrivateDir, ensurePrivateFile, PRIVATE_FILE_MODE, tighten } from './private-files.js';

export type { Db } from './db.js';

export interface OpenOptions {
  /** How long a writer waits for another connection's lock before SQLITE_BUSY (default 5000 ms). */
  busyTimeoutMs?: number;
  readonly?: boolean;
}

export function openDatabase(file: string, options: OpenOptions = {}): Db {
  const onDisk = file !== ':memory:' && !options.readonly;
  if (onDisk) {
    ensurePrivateDir(dirname(file));
    ensurePrivateFile(file);
    for (const suffix of ['-wal', '-shm']) tighten(`${file}${suffix}`, PRIVATE_FILE_MODE);
  }
  // Under Electron, the build of better-sqlite3 for its ABI (native-addons.ts); under Node, npm's.
  const nativeBinding = electronAddonPath('better-sqlite3') ?? undefined;
  const db = new Database(file, { readonly: options.readonly ?? false, ...(nativeBinding ? { nativeBinding } : {}) });
  db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
  if (!options.readonly) {
    db.pragma('secure_delete = ON');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    applyMigrations(db, MIGRATIONS);
  }
  return db;
}
