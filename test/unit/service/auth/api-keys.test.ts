/**
 * ApiKeys over a real SQLite file through the asynchronous store: last_used_at is written at most once a minute per
 * key (a script polling every 500 ms must not write on every request), a key matched a moment ago answers at once
 * (no promise: the request stays synchronous) while no other connection committed, revocation is announced to
 * listeners and holds at once even when made by another connection, and a revoked key cannot be registered again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiKeys, TOUCH_INTERVAL_MS } from '../../../../src-main/service/auth/api-keys.js';
import { createAccountsRepo } from '../../../../src-main/store/accounts-repo.js';
import { openDatabase, type Db } from '../../../../src-main/store/database.js';
import { createSqliteStore, type SqliteStore } from '../../../../src-main/store/sqlite-store.js';

let dir: string;
let db: Db;
let store: SqliteStore;
let now: number;
let keys: ApiKeys;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-keys-'));
  db = openDatabase(join(dir, 'v.db'));
  store = createSqliteStore(db, join(dir, 'v.db'));
  now = Date.parse('2026-05-01T12:00:00.000Z');
  keys = new ApiKeys(store.repos.accounts, () => now, store.othersNow);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const lastUsed = async (): Promise<string | null> => (await keys.list())[0]!.last_used_at;
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('last_used_at', () => {
  it('is written on first use, then at most once per minute however many requests come', async () => {
    const key = await keys.createKey('local', 'poller');
    const writes = (): number => db.prepare<[], { n: number }>('SELECT total_changes() AS n').get()!.n;
    expect(await lastUsed()).toBeNull();
    await keys.find(key);
    await settle();
    expect(await lastUsed()).toBe('2026-05-01T12:00:00.000Z');
    const before = writes();
    for (let i = 0; i < 200; i++) {
      now += 250; // 50 s of polling
      expect((await keys.find(key))?.accountName).toBe('local');
    }
    await settle();
    expect(writes()).toBe(before);
    expect(await lastUsed()).toBe('2026-05-01T12:00:00.000Z');
    now += TOUCH_INTERVAL_MS;
    await keys.find(key);
    await settle();
    expect(await lastUsed()).toBe(new Date(now).toISOString());
  });
});

describe('remembered matches', () => {
  it('answer at once, without a promise, once a key was looked up and nothing moved', async () => {
    const key = await keys.createKey('local', 'hot path');
    const first = keys.find(key);
    expect(first).toBeInstanceOf(Promise);
    expect((await first)?.accountName).toBe('local');
    const again = keys.find(key);
    expect(again).not.toBeInstanceOf(Promise);
    expect((again as { accountName: string }).accountName).toBe('local');
  });

  it('are not kept without the store’s synchronous count (every find asks the repository)', async () => {
    const plain = new ApiKeys(store.repos.accounts, () => now);
    const key = await plain.createKey('local');
    await plain.find(key);
    expect(plain.find(key)).toBeInstanceOf(Promise);
  });
});

describe('revocation', () => {
  it('refuses the key, tells listeners once, and keeps a revoked key from being registered again', async () => {
    const chosen = 'vdk_a_key_chosen_by_a_script_000';
    await keys.registerKey('local', chosen, 'VOXDESK_API_KEY');
    const id = (await keys.list())[0]!.id;
    const heard: string[] = [];
    keys.onRevoked((keyId) => heard.push(keyId));
    expect(await keys.find(chosen)).toBeDefined();
    expect(await keys.revoke(id)).toBe(true);
    expect(await keys.revoke(id)).toBe(false);
    expect(heard).toEqual([id]);
    expect(await keys.find(chosen)).toBeUndefined();
    expect(await keys.isActive(id)).toBe(false);
    await expect(keys.registerKey('local', chosen)).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('a lookup under way while the key is revoked here does not remember it', async () => {
    const key = await keys.createKey('local', 'raced');
    const id = (await keys.list())[0]!.id;
    const lookup = keys.find(key);
    await keys.revoke(id);
    await lookup;
    expect(await keys.find(key)).toBeUndefined();
  });

  it('refuses a key the moment another connection revokes it, though its match was remembered', async () => {
    const key = await keys.createKey('local', 'remembered');
    expect((await keys.find(key))?.accountName).toBe('local');
    expect((await keys.find(key))?.accountName).toBe('local');
    // Another process (voxdesk keys revoke) with its own connection to the same file.
    const other = openDatabase(join(dir, 'v.db'));
    try {
      expect(createAccountsRepo(other).revokeApiKey((await keys.list())[0]!.id)).toBe(true);
    } finally {
      other.close();
    }
    expect(await keys.find(key)).toBeUndefined();
  });

  it('refuses keys shorter than 24 characters', async () => {
    await expect(keys.registerKey('local', 'vdk_only_twenty_chars')).rejects.toThrow('at least 24 characters');
  });
});
