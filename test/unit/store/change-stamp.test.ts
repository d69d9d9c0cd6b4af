import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createChangeStamp } from '../../../src-main/store/change-stamp.js';
import { openDatabase, type Db } from '../../../src-main/store/database.js';

let dir: string;
let db: Db;
let other: Db;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-stamp-'));
  db = openDatabase(join(dir, 'v.db'));
  other = openDatabase(join(dir, 'v.db'));
  db.exec('CREATE TABLE IF NOT EXISTS t (a INTEGER)');
});
afterEach(() => {
  other.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('change stamp', () => {
  it('stands still while nothing is written, reads included', () => {
    const changes = createChangeStamp(db);
    const stamp = changes.take();
    db.prepare('SELECT * FROM t').all();
    other.prepare('SELECT * FROM t').all();
    expect(changes.unchanged(stamp)).toBe(true);
  });

  it('moves on a write of this connection, committed or not', () => {
    const changes = createChangeStamp(db);
    let stamp = changes.take();
    db.prepare('INSERT INTO t VALUES (1)').run();
    expect(changes.unchanged(stamp)).toBe(false);
    stamp = changes.take();
    db.prepare('UPDATE t SET a = 2').run();
    expect(changes.unchanged(stamp)).toBe(false);
    stamp = changes.take();
    expect(() =>
      db.transaction(() => {
        db.prepare('DELETE FROM t').run();
        throw new Error('rolled back');
      })(),
    ).toThrow('rolled back');
    // A rolled-back write only costs a needless rebuild.
    expect(changes.unchanged(stamp)).toBe(false);
  });

  it('moves when another connection commits (a worker process, `voxdesk keys revoke`, a second instance)', () => {
    const changes = createChangeStamp(db);
    const stamp = changes.take();
    other.prepare('INSERT INTO t VALUES (1)').run();
    expect(changes.unchanged(stamp)).toBe(false);
  });

  it('does not move for a write that changed no row', () => {
    const changes = createChangeStamp(db);
    const stamp = changes.take();
    db.prepare('UPDATE t SET a = 3 WHERE a = 99').run();
    expect(changes.unchanged(stamp)).toBe(true);
  });
});
