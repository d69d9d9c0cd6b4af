/**
 * Accounts and API keys on PostgreSQL, with the semantics of store/accounts-repo.ts. Across nodes at READ COMMITTED:
 * - `ensureAccount`: `INSERT … ON CONFLICT (name) DO NOTHING`, then a read: of two nodes creating the same name one
 *   inserts, the other waits on the unique key and then reads that row.
 * - `registerApiKey`: the same on `key_hash` (unique), then the stored row decides: another account's key or a
 *   revoked one is refused whichever node inserted it.
 * - `revokeApiKey`: `UPDATE … WHERE revoked_at IS NULL`, true on the node whose update changed the row.
 * - `findKey` remembers matches while no other node committed (the change feed) and this store revoked nothing,
 *   as the SQLite repository does with data_version; a revocation on another node is seen once its notification
 *   arrives (a moment after its commit), one made here once it commits.
 */
import {
  hashKey,
  keyLabel,
  KEY_CACHE_SIZE,
  MIN_API_KEY_LENGTH,
  newApiKey,
  revokedKeyError,
  type Account,
  type AccountsRepo,
  type ApiKeyInfo,
  type CreatedKey,
  type KeyMatch,
} from '../accounts-repo.js';
import { isoAt } from '../clock.js';
import { newId } from '../ids.js';
import type { Async } from '../store.js';
import type { PgShared } from './shared.js';
import type { Sql } from './sql.js';

const INSERT_ACCOUNT = 'INSERT INTO accounts (id, name, created_at) VALUES ($1, $2, $3)';
const ENSURE_ACCOUNT = 'INSERT INTO accounts (id, name, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING';
const BY_NAME = 'SELECT id, name, created_at FROM accounts WHERE name = $1';
const BY_ID = 'SELECT id, name, created_at FROM accounts WHERE id = $1';
const INSERT_KEY = `INSERT INTO api_keys (id, account_id, key_hash, prefix, created_at, name) VALUES ($1, $2, $3, $4, $5, $6)
  ON CONFLICT (key_hash) DO NOTHING`;
const KEY_BY_HASH = 'SELECT id, account_id, revoked_at FROM api_keys WHERE key_hash = $1';
const BY_KEY = `SELECT a.id, a.name, a.created_at, k.id AS key_id FROM api_keys k JOIN accounts a ON a.id = k.account_id
  WHERE k.key_hash = $1 AND k.revoked_at IS NULL`;
const ACTIVE_BY_ID = 'SELECT id FROM api_keys WHERE id = $1 AND revoked_at IS NULL';
const TOUCH = 'UPDATE api_keys SET last_used_at = $1 WHERE id = $2';
const KEY_COLUMNS = `k.id, k.account_id, a.name AS account, k.name, k.prefix, k.created_at, k.last_used_at, k.revoked_at
  FROM api_keys k JOIN accounts a ON a.id = k.account_id`;
const KEYS_OF = `SELECT ${KEY_COLUMNS} WHERE k.account_id = $1 ORDER BY k.created_at, k.id`;
const ALL_KEYS = `SELECT ${KEY_COLUMNS} ORDER BY k.created_at, k.id`;
const KEY_BY_ID = `SELECT ${KEY_COLUMNS} WHERE k.id = $1`;
const REVOKE = 'UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL';

export function createPgAccountsRepo(sql: Sql, shared: PgShared): Async<AccountsRepo> {
  const { clock, keyMatches } = shared;

  /** The key's row, inserted unless its hash is stored already; answers the stored row. */
  async function storeKey(accountId: string, key: string, name: string | null): Promise<CreatedKey & { inserted: boolean }> {
    const id = newId('key', clock().getTime());
    const hash = hashKey(key);
    const prefix = keyLabel(key, hash);
    const inserted = (await sql.run(INSERT_KEY, [id, accountId, hash, prefix, isoAt(clock), name])) === 1;
    return { id, key, prefix, inserted };
  }

  const repo: Async<AccountsRepo> = {
    async createAccount(name) {
      const trimmed = name.trim();
      if (!trimmed) throw new Error('an account needs a non-empty name');
      const account: Account = { id: newId('acc', clock().getTime()), name: trimmed, created_at: isoAt(clock) };
      await sql.run(INSERT_ACCOUNT, [account.id, account.name, account.created_at]);
      return account;
    },
    async ensureAccount(name) {
      const trimmed = name.trim();
      const found = await sql.one<Account>(BY_NAME, [trimmed]);
      if (found) return found;
      if (!trimmed) throw new Error('an account needs a non-empty name');
      await sql.run(ENSURE_ACCOUNT, [newId('acc', clock().getTime()), trimmed, isoAt(clock)]);
      return (await sql.one<Account>(BY_NAME, [trimmed]))!;
    },
    getAccount: (id) => sql.one<Account>(BY_ID, [id]),
    async createApiKey(accountId, name = null) {
      if (!(await sql.one(BY_ID, [accountId]))) throw new Error(`unknown account ${accountId}`);
      const { id, key, prefix } = await storeKey(accountId, newApiKey(), name);
      return { id, key, prefix };
    },
    async registerApiKey(accountId, key, name = null) {
      if (key.length < MIN_API_KEY_LENGTH) throw new Error(`an API key must be at least ${MIN_API_KEY_LENGTH} characters long`);
      const hash = hashKey(key);
      let existing = await sql.one<{ id: string; account_id: string; revoked_at: string | null }>(KEY_BY_HASH, [hash]);
      if (!existing) {
        if ((await storeKey(accountId, key, name)).inserted) return;
        existing = await sql.one<{ id: string; account_id: string; revoked_at: string | null }>(KEY_BY_HASH, [hash]);
        if (!existing) throw new Error('this API key was registered and removed at the same moment; register it again');
      }
      if (existing.account_id !== accountId) throw new Error('this API key already belongs to another account');
      if (existing.revoked_at) throw revokedKeyError(existing.id, name);
    },
    async findAccountByKey(key) {
      return (await repo.findKey(key))?.account;
    },
    async findKey(key) {
      if (!key) return undefined;
      const version = shared.othersVersion();
      if (version !== keyMatches.version) {
        keyMatches.matches.clear();
        keyMatches.version = version;
      }
      const known = keyMatches.matches.get(key);
      if (known) return { keyId: known.keyId, account: { ...known.account } };
      const row = await sql.one<Account & { key_id: string }>(BY_KEY, [hashKey(key)]);
      if (!row) return undefined;
      const match: KeyMatch = { keyId: row.key_id, account: { id: row.id, name: row.name, created_at: row.created_at } };
      // Kept only if nothing moved while the row was read (a revocation meanwhile must not be remembered as active).
      if (shared.othersVersion() === version && keyMatches.version === version) {
        if (keyMatches.matches.size >= KEY_CACHE_SIZE) keyMatches.matches.clear();
        keyMatches.matches.set(key, match);
      }
      return { keyId: match.keyId, account: { ...match.account } };
    },
    isKeyActive: async (keyId) => (await sql.one(ACTIVE_BY_ID, [keyId])) !== undefined,
    touchKey: async (keyId, at) => void (await sql.run(TOUCH, [at, keyId])),
    listApiKeys: (accountId) => sql.all<ApiKeyInfo>(KEYS_OF, [accountId]),
    listAllApiKeys: () => sql.all<ApiKeyInfo>(ALL_KEYS),
    getApiKey: (keyId) => sql.one<ApiKeyInfo>(KEY_BY_ID, [keyId]),
    async revokeApiKey(keyId) {
      const forget = (): void => {
        keyMatches.matches.clear();
        keyMatches.version = -1; // a findKey reading meanwhile does not keep what it read
      };
      forget();
      const changed = (await sql.run(REVOKE, [isoAt(clock), keyId])) > 0;
      forget();
      // Inside a transaction, a findKey outside it can still read the key as active until it commits: forget again then.
      sql.afterCommit(forget);
      return changed;
    },
  };
  return repo;
}
