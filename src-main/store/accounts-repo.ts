/** Accounts and API keys. Keys are `vdk_` + 32 base62 chars, shown once; only their sha256 is stored. */
import { createHash } from 'node:crypto';
import type { Db } from './db.js';
import { isoAt, systemClock, type Clock } from './clock.js';
import { newId, randomBase62 } from './ids.js';

export interface Account {
  id: string;
  name: string;
  created_at: string;
}

export interface ApiKeyInfo {
  id: string;
  account_id: string;
  prefix: string;
  created_at: string;
  revoked_at: string | null;
}

export interface CreatedKey {
  id: string;
  /** The plaintext key: returned here once, never stored. */
  key: string;
  prefix: string;
}

export const KEY_PATTERN = /^vdk_[0-9A-Za-z]{32}$/;

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function newApiKey(): string {
  return `vdk_${randomBase62(32)}`;
}

export interface AccountsRepo {
  createAccount(name: string): Account;
  /** The account with this name, created if missing. */
  ensureAccount(name: string): Account;
  getAccount(id: string): Account | undefined;
  createApiKey(accountId: string): CreatedKey;
  /** Registers a key chosen elsewhere (VOXDESK_API_KEY); idempotent for the same account. */
  registerApiKey(accountId: string, key: string): void;
  findAccountByKey(key: string): Account | undefined;
  listApiKeys(accountId: string): ApiKeyInfo[];
  revokeApiKey(keyId: string): boolean;
}

export function createAccountsRepo(db: Db, clock: Clock = systemClock): AccountsRepo {
  const insertAccount = db.prepare('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)');
  const byName = db.prepare<[string], Account>('SELECT id, name, created_at FROM accounts WHERE name = ?');
  const byId = db.prepare<[string], Account>('SELECT id, name, created_at FROM accounts WHERE id = ?');
  const insertKey = db.prepare(
    'INSERT INTO api_keys (id, account_id, key_hash, prefix, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const keyByHash = db.prepare<[string], { account_id: string; revoked_at: string | null }>(
    'SELECT account_id, revoked_at FROM api_keys WHERE key_hash = ?',
  );
  const byKey = db.prepare<[string], Account>(
    `SELECT a.id, a.name, a.created_at FROM api_keys k JOIN accounts a ON a.id = k.account_id
     WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
  );
  const keysOf = db.prepare<[string], ApiKeyInfo>(
    'SELECT id, account_id, prefix, created_at, revoked_at FROM api_keys WHERE account_id = ? ORDER BY created_at',
  );
  const revoke = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');

  function storeKey(accountId: string, key: string): CreatedKey {
    const id = newId('key', clock().getTime());
    const prefix = key.slice(0, 8);
    insertKey.run(id, accountId, hashKey(key), prefix, isoAt(clock));
    return { id, key, prefix };
  }

  return {
    createAccount(name) {
      const trimmed = name.trim();
      if (!trimmed) throw new Error('an account needs a non-empty name');
      const account: Account = { id: newId('acc', clock().getTime()), name: trimmed, created_at: isoAt(clock) };
      insertAccount.run(account.id, account.name, account.created_at);
      return account;
    },
    ensureAccount(name) {
      return db.transaction(() => byName.get(name.trim()) ?? this.createAccount(name)).immediate();
    },
    getAccount: (id) => byId.get(id),
    createApiKey(accountId) {
      if (!byId.get(accountId)) throw new Error(`unknown account ${accountId}`);
      return storeKey(accountId, newApiKey());
    },
    registerApiKey(accountId, key) {
      if (key.length < 8) throw new Error('an API key must be at least 8 characters long');
      db.transaction(() => {
        const existing = keyByHash.get(hashKey(key));
        if (existing) {
          if (existing.account_id !== accountId) throw new Error('this API key already belongs to another account');
          return;
        }
        storeKey(accountId, key);
      }).immediate();
    },
    findAccountByKey: (key) => (key ? byKey.get(hashKey(key)) : undefined),
    listApiKeys: (accountId) => keysOf.all(accountId),
    revokeApiKey: (keyId) => revoke.run(isoAt(clock), keyId).changes > 0,
  };
}
