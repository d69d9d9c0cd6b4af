/**
 * ApiKeys over a real SQLite file: last_used_at is written at most once a minute per key (a script polling every
 * 500 ms must not write on every request), revocation is announced to listeners and holds at once even when made
 * by another connection (matches are remembered between requests), and a revoked key cannot be registered again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiKeys, TOUCH_INTERVAL_MS } from '../../../../src-main/service/auth/api-keys.js';
import { createAccountsRepo, RevokedKeyError, type AccountsRepo } from '../../../../src-main/store/accounts-repo.js';
import { openDatabase, type Db } from '../../../../src-main/store/database.js';

let dir: string;
let db: Db;
let repo: AccountsRepo;
let now: number;
let keys: ApiKeys;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-keys-'));
  db = openDatabase(join(dir, 'v.db'));
  repo = createAccountsRepo(db);
  now = Date.parse('2026-05-01T12:00:00.000Z');
  keys = new ApiKeys(repo, () => now);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('last_used_at', () => {
  it('is written on first use, then at most once per minute however many requests come', () => {
    const key = keys.createKey('local', 'poller');
    const writes = (): number => db.prepare<[], { n: number }>('SELECT total_changes() AS n').get()!.n;
    expect(keys.list()[0]!.last_used_at).toBeNull();
    keys.find(key);
    expect(keys.list()[0]!.last_used_at).toBe('2026-05-01T12:00:00.000Z');
    const before = writes();
    for (let i = 0; i < 200; i++) {
      now += 250; // 50 s of polling
      expect(keys.find(key)?.accountName).toBe('local');
    }
    expect(writes()).toBe(before);
    expect(keys.list()[0]!.last_used_at).toBe('2026-05-01T12:00:00.000Z');
    now += TOUCH_INTERVAL_MS;
    keys.find(key);
    expect(keys.list()[0]!.last_used_at).toBe(new Date(now).toISOString());
  });
});

describe('revocation', () => {
  it('refuses the key, tells listeners once, and keeps a revoked key from being registered again', () => {
    const chosen = 'vdk_a_key_chosen_by_a_script_000';
    keys.registerKey('local', chosen, 'VOXDESK_API_KEY');
    const id = keys.list()[0]!.id;
    const heard: string[] = [];
    keys.onRevoked((keyId) => heard.push(keyId));
    expect(keys.revoke(id)).toBe(true);
    expect(keys.revoke(id)).toBe(false);
    expect(heard).toEqual([id]);
    expect(keys.find(chosen)).toBeUndefined();
    expect(keys.isActive(id)).toBe(false);
    expect(() => keys.registerKey('local', chosen)).toThrow(RevokedKeyError);
  });

  it('refuses a key the moment another connection revokes it, though its match was remembered', () => {
    const key = keys.createKey('local', 'remembered');
    expect(keys.find(key)?.accountName).toBe('local');
    expect(keys.find(key)?.accountName).toBe('local');
    // Another process (voxdesk keys revoke) with its own connection to the same file.
    const other = openDatabase(join(dir, 'v.db'));
    try {
      expect(createAccountsRepo(other).revokeApiKey(keys.list()[0]!.id)).toBe(true);
    } finally {
      other.close();
    }
    expect(keys.find(key)).toBeUndefined();
  });

  it('refuses keys shorter than 24 characters', () => {
    expect(() => keys.registerKey('local', 'vdk_only_twenty_chars')).toThrow('at least 24 characters');
  });
});
