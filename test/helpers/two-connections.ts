/**
 * Two connections to one fresh SQLite file, opened before each test and closed after it: what a cache that must
 * notice another process's commits (a worker, `voxdesk keys revoke`) is tested against. `setup` runs on the first
 * connection once it is open (a table for the test to write to).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { openDatabase, type Db } from '../../src-main/store/database.js';

export interface TwoConnections {
  /** The connection under test. */
  readonly db: Db;
  /** Another connection to the same file (another process, as far as SQLite can tell). */
  readonly other: Db;
}

export function useTwoConnections(setupSql: string): TwoConnections {
  let dir = '';
  const open: { db?: Db; other?: Db } = {};
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'voxdesk-two-connections-'));
    open.db = openDatabase(join(dir, 'v.db'));
    open.other = openDatabase(join(dir, 'v.db'));
    open.db.exec(setupSql);
  });
  afterEach(() => {
    open.other?.close();
    open.db?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    get db() {
      return open.db!;
    },
    get other() {
      return open.other!;
    },
  };
}
