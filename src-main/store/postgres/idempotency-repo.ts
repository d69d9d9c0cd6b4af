/**
 * Idempotency keys on PostgreSQL, with the semantics of store/idempotency-repo.ts. The intake looks a key up and, when
 * it is new, inserts it in the same transaction as the job or batch it names. Across nodes: `find` inside a
 * transaction first takes a transaction-scoped advisory lock on (account, key), so a second node's request with the
 * same key waits until the first commits and then finds its row (answering the same job), instead of both finding
 * nothing and the second failing on the primary key. `insert` fails on a taken (account, key), the primary key;
 * `purgeExpired` deletes what expired, whichever node gets there first (the other deletes nothing).
 */
import type { IdempotencyRepo, IdempotencyRow } from '../idempotency-repo.js';
import type { Async } from '../store.js';
import { LOCK_SPACE } from './shared.js';
import type { Sql } from './sql.js';

const LOCK_KEY = `SELECT pg_advisory_xact_lock(${LOCK_SPACE.idempotencyKey}, hashtext($1::text || ' ' || $2::text))`;
const PURGE_ONE = 'DELETE FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND expires_at <= $3';
const FIND = `SELECT account_id, key, request_hash, resource_type, resource_id, created_at, expires_at FROM idempotency_keys
  WHERE account_id = $1 AND key = $2`;
const INSERT = `INSERT INTO idempotency_keys (account_id, key, request_hash, resource_type, resource_id, created_at, expires_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7)`;
const PURGE = 'DELETE FROM idempotency_keys WHERE expires_at <= $1';

export function createPgIdempotencyRepo(sql: Sql): Async<IdempotencyRepo> {
  return {
    async find(accountId, key, nowIso) {
      if (sql.inTransaction) await sql.one(LOCK_KEY, [accountId, key]);
      await sql.run(PURGE_ONE, [accountId, key, nowIso]);
      return sql.one<IdempotencyRow>(FIND, [accountId, key]);
    },
    insert: async (row) =>
      void (await sql.run(INSERT, [row.account_id, row.key, row.request_hash, row.resource_type, row.resource_id, row.created_at, row.expires_at])),
    purgeExpired: (nowIso) => sql.run(PURGE, [nowIso]),
  };
}
