/**
 * Migration 022 on a real database file: the label of a key its owner chose, which held the key's first eight
 * characters, becomes a fingerprint of its hash; generated keys keep theirs.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashKey } from '../../../src-main/store/accounts-repo.js';
import { openDatabase } from '../../../src-main/store/database.js';
import { applyMigrations } from '../../../src-main/store/migrate.js';
import { MIGRATIONS } from '../../../src-main/store/migrations/index.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-m022-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('migration 022 (key-fingerprints)', () => {
  it('replaces a chosen key’s first characters by a fingerprint and keeps generated keys’ labels', () => {
    const path = join(dir, 'voxdesk.db');
    const old = new Database(path);
    applyMigrations(old, MIGRATIONS.filter((m) => m.version < 22));
    old.prepare("INSERT INTO accounts (id, name, created_at) VALUES ('acc', 'local', '2026-01-01T00:00:00.000Z')").run();
    const insert = old.prepare("INSERT INTO api_keys (id, account_id, key_hash, prefix, created_at) VALUES (?, 'acc', ?, ?, '2026-01-01T00:00:00.000Z')");
    const chosen = 'operator-secret-0123456789';
    const generated = 'vdk_Abcd0123456789012345678901234567';
    insert.run('key_1', hashKey(chosen), chosen.slice(0, 8));
    insert.run('key_2', hashKey(generated), generated.slice(0, 8));
    old.close();

    const db = openDatabase(path);
    try {
      const rows = db.prepare('SELECT id, prefix FROM api_keys ORDER BY id').all();
      expect(rows).toEqual([
        { id: 'key_1', prefix: `fp:${hashKey(chosen).slice(0, 8)}` },
        { id: 'key_2', prefix: 'vdk_Abcd' },
      ]);
    } finally {
      db.close();
    }
  });
});
