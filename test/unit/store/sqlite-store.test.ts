import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/store/database.js';
import { createSqliteStore, type SqliteStore } from '../../../src-main/store/sqlite-store.js';

let dir: string;
let store: SqliteStore;
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

function open(): SqliteStore {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-sqlite-store-'));
  const file = join(dir, 'voxdesk.db');
  return createSqliteStore(openDatabase(file), file);
}

describe('the SQLite store', () => {
  it("the store's own repos or tx() used inside its transaction fail at once instead of waiting for ever", async () => {
    store = open();
    const selfWait = /would wait for ever: use the transaction's/;
    await expect(store.tx(async () => store.repos.accounts.createAccount('inner'))).rejects.toThrow(selfWait);
    await expect(store.tx(async () => store.tx(async () => 1))).rejects.toThrow(selfWait);
    // Nothing of the failed transactions stayed, and the store goes on working.
    expect(await store.tx(async (tx) => (await tx.repos.accounts.createAccount('outer')).name)).toBe('outer');
    expect(await store.tx(async (tx) => tx.tx(async () => 2))).toBe(2);
  });

  it('a call from outside waits for the transaction in progress, and then runs', async () => {
    store = open();
    const order: string[] = [];
    const inTx = store.tx(async (tx) => {
      await tx.repos.accounts.createAccount('a');
      await new Promise((resolve) => setTimeout(resolve, 20));
      order.push('tx done');
    });
    const outside = store.repos.accounts.createAccount('b').then(() => order.push('outside'));
    await Promise.all([inTx, outside]);
    expect(order).toEqual(['tx done', 'outside']);
  });

  it("others' version is read inside a transaction too (a cache asked from the job engine's pass), and moves on another connection's commit", async () => {
    store = open();
    const before = await store.tx(async () => store.othersVersion());
    const other = openDatabase(join(dir, 'voxdesk.db'));
    other.prepare("INSERT INTO settings (key, value_json, updated_at) VALUES ('x', '1', '2026-01-01')").run();
    other.close();
    expect(await store.tx(async () => store.othersVersion())).not.toBe(before);
  });
});
