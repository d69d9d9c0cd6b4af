/**
 * Accounts and API keys. Keys are `vdk_` + 32 base62 chars, shown once; only their sha256 is stored. A key chosen
 * elsewhere (VOXDESK_API_KEY, the desktop app's install key) must be at least MIN_API_KEY_LENGTH characters. A
 * revoked key stays revoked: registering it again is refused rather than silently bringing it back.
 */
import { createHash } from 'node:crypto';
import { ApiError } from '../common/errors.js';
import type { Db } from './db.js';
import { isoAt, systemClock, type Clock } from './clock.js';
import { newId, randomBase62 } from './ids.js';
import { createOthersCommits, type OthersCommits } from './others-commits.js';

export interface Account {
  id: string;
  name: string;
  created_at: string;
}

export interface ApiKeyInfo {
  id: string;
  account_id: string;
  /** The owning account's name. */
  account: string;
  /** What the person called the key (keys create --name); null when unnamed. */
  name: string | null;
  prefix: string;
  created_at: string;
  /** When the key last authenticated a request, to within a minute; null if never. */
  last_used_at: string | null;
  revoked_at: string | null;
}

/** An active key's row id and owner. */
export interface KeyMatch {
  keyId: string;
  account: Account;
}

/**
 * Registering a key that was revoked: it must not come back to life. `unauthorized`, as the key would be at any
 * request; named by where it came from (`name`: VOXDESK_API_KEY) when it has one.
 */
export function revokedKeyError(keyId: string, name: string | null): ApiError {
  return new ApiError(
    'unauthorized',
    name ? `${name} was revoked (${keyId}, voxdesk keys list shows it); use another key` : `this API key was revoked (${keyId}); choose another one`,
  );
}

/** Shortest key accepted from outside (VOXDESK_API_KEY): 24 characters, enough that guessing is hopeless. */
export const MIN_API_KEY_LENGTH = 24;

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

const GENERATED_KEY_PREFIX = 'vdk_';

export function newApiKey(): string {
  return `${GENERATED_KEY_PREFIX}${randomBase62(32)}`;
}

/**
 * How a key is shown in lists: a generated key by its first 8 characters (`vdk_` and 4 of its 32 random ones); a key
 * its owner chose by `fp:` and 8 hex digits of its SHA-256, never by its own characters (migration 022).
 */
export function keyLabel(key: string, hash: string = hashKey(key)): string {
  return key.startsWith(GENERATED_KEY_PREFIX) ? key.slice(0, 8) : `fp:${hash.slice(0, 8)}`;
}

export interface AccountsRepo {
  createAccount(name: string): Account;
  /** The account with this name, created if missing. */
  ensureAccount(name: string): Account;
  getAccount(id: string): Account | undefined;
  createApiKey(accountId: string, name?: string | null): CreatedKey;
  /**
   * Registers a key chosen elsewhere (VOXDESK_API_KEY, the desktop app's key); idempotent for the same account.
   * Throws ApiError `unauthorized` for a key that was revoked, and an Error for one shorter than MIN_API_KEY_LENGTH.
   */
  registerApiKey(accountId: string, key: string, name?: string | null): void;
  findAccountByKey(key: string): Account | undefined;
  /** The active (not revoked) key matching `key`, with its owner. */
  findKey(key: string): KeyMatch | undefined;
  /** True while the key row exists and is not revoked (open sessions re-check their key with it). */
  isKeyActive(keyId: string): boolean;
  /** Records a use of the key (callers throttle it: see service/auth/api-keys.ts). */
  touchKey(keyId: string, at: string): void;
  listApiKeys(accountId: string): ApiKeyInfo[];
  /** Every key of every account, oldest first. */
  listAllApiKeys(): ApiKeyInfo[];
  getApiKey(keyId: string): ApiKeyInfo | undefined;
  revokeApiKey(keyId: string): boolean;
}

/** Active keys whose match is remembered between requests (see findKey). Default 256; more clear the memory. */
export const KEY_CACHE_SIZE = 256;

/** `othersCommits` is shared with the connection's other caches (one data_version read per request). */
export function createAccountsRepo(db: Db, clock: Clock = systemClock, othersCommits: OthersCommits = createOthersCommits(db)): AccountsRepo {
  // findKey runs on every authenticated request; a sha256 and a join for a key that was fine a moment ago were a
  // fifth of what polling a job cost. Matches are remembered while the database is unchanged by any other connection
  // (PRAGMA data_version moves on every commit made elsewhere: `voxdesk keys revoke`, another instance) and until
  // this connection revokes a key; only keys that matched are kept, so wrong guesses never fill the memory.
  const matches = new Map<string, KeyMatch>();
  let matchesVersion = -1;
  const insertAccount = db.prepare('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)');
  const byName = db.prepare<[string], Account>('SELECT id, name, created_at FROM accounts WHERE name = ?');
  const byId = db.prepare<[string], Account>('SELECT id, name, created_at FROM accounts WHERE id = ?');
  const insertKey = db.prepare(
    'INSERT INTO api_keys (id, account_id, key_hash, prefix, created_at, name) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const keyByHash = db.prepare<[string], { id: string; account_id: string; revoked_at: string | null }>(
    'SELECT id, account_id, revoked_at FROM api_keys WHERE key_hash = ?',
  );
  const byKey = db.prepare<[string], Account & { key_id: string }>(
    `SELECT a.id, a.name, a.created_at, k.id AS key_id FROM api_keys k JOIN accounts a ON a.id = k.account_id
     WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
  );
  const activeById = db.prepare<[string], { id: string }>('SELECT id FROM api_keys WHERE id = ? AND revoked_at IS NULL');
  const touch = db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?');
  const KEY_COLUMNS = `k.id, k.account_id, a.name AS account, k.name, k.prefix, k.created_at, k.last_used_at, k.revoked_at
     FROM api_keys k JOIN accounts a ON a.id = k.account_id`;
  const keysOf = db.prepare<[string], ApiKeyInfo>(`SELECT ${KEY_COLUMNS} WHERE k.account_id = ? ORDER BY k.created_at, k.id`);
  const allKeys = db.prepare<[], ApiKeyInfo>(`SELECT ${KEY_COLUMNS} ORDER BY k.created_at, k.id`);
  const keyById = db.prepare<[string], ApiKeyInfo>(`SELECT ${KEY_COLUMNS} WHERE k.id = ?`);
  const revoke = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');

  function storeKey(accountId: string, key: string, name: string | null): CreatedKey {
    const id = newId('key', clock().getTime());
    const hash = hashKey(key);
    const prefix = keyLabel(key, hash);
    insertKey.run(id, accountId, hash, prefix, isoAt(clock), name);
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
    createApiKey(accountId, name = null) {
      if (!byId.get(accountId)) throw new Error(`unknown account ${accountId}`);
      return storeKey(accountId, newApiKey(), name);
    },
    registerApiKey(accountId, key, name = null) {
      if (key.length < MIN_API_KEY_LENGTH) throw new Error(`an API key must be at least ${MIN_API_KEY_LENGTH} characters long`);
      db.transaction(() => {
        const existing = keyByHash.get(hashKey(key));
        if (existing) {
          if (existing.account_id !== accountId) throw new Error('this API key already belongs to another account');
          if (existing.revoked_at) throw revokedKeyError(existing.id, name);
          return;
        }
        storeKey(accountId, key, name);
      }).immediate();
    },
    findAccountByKey(key) {
      const match = this.findKey(key);
      return match?.account;
    },
    findKey(key) {
      if (!key) return undefined;
      const version = othersCommits.read();
      if (version !== matchesVersion) {
        matches.clear();
        matchesVersion = version;
      }
      const known = matches.get(key);
      if (known) return { keyId: known.keyId, account: { ...known.account } };
      const row = byKey.get(hashKey(key));
      if (!row) return undefined;
      const match: KeyMatch = { keyId: row.key_id, account: { id: row.id, name: row.name, created_at: row.created_at } };
      if (matches.size >= KEY_CACHE_SIZE) matches.clear();
      matches.set(key, match);
      return { keyId: match.keyId, account: { ...match.account } };
    },
    isKeyActive: (keyId) => activeById.get(keyId) !== undefined,
    touchKey: (keyId, at) => void touch.run(at, keyId),
    listApiKeys: (accountId) => keysOf.all(accountId),
    listAllApiKeys: () => allKeys.all(),
    getApiKey: (keyId) => keyById.get(keyId),
    revokeApiKey: (keyId) => {
      matches.clear();
      return revoke.run(isoAt(clock), keyId).changes > 0;
    },
  };
}
