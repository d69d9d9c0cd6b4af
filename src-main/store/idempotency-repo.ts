/** Idempotency keys: (account, key) → request hash and the job or batch it created; kept 24 h. */
import type { Db } from './db.js';

export interface IdempotencyRow {
  account_id: string;
  key: string;
  request_hash: string;
  resource_type: 'job' | 'batch';
  resource_id: string;
  created_at: string;
  expires_at: string;
}

/** How long a key is remembered (docs/design.md §3: 24 h). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface IdempotencyRepo {
  /** The live entry for (account, key), after deleting it if it expired at `nowIso`. */
  find(accountId: string, key: string, nowIso: string): IdempotencyRow | undefined;
  insert(row: IdempotencyRow): void;
  purgeExpired(nowIso: string): number;
}

export function createIdempotencyRepo(db: Db): IdempotencyRepo {
  const purgeOne = db.prepare('DELETE FROM idempotency_keys WHERE account_id = ? AND key = ? AND expires_at <= ?');
  const find = db.prepare<[string, string], IdempotencyRow>(
    'SELECT * FROM idempotency_keys WHERE account_id = ? AND key = ?',
  );
  const insert = db.prepare(`INSERT INTO idempotency_keys (account_id, key, request_hash, resource_type, resource_id,
      created_at, expires_at)
    VALUES (@account_id, @key, @request_hash, @resource_type, @resource_id, @created_at, @expires_at)`);
  const purge = db.prepare('DELETE FROM idempotency_keys WHERE expires_at <= ?');
  return {
    find(accountId, key, nowIso) {
      purgeOne.run(accountId, key, nowIso);
      return find.get(accountId, key);
    },
    insert: (row) => void insert.run(row),
    purgeExpired: (nowIso) => purge.run(nowIso).changes,
  };
}
