/**
 * Key/value settings on PostgreSQL, with the semantics of store/settings-repo.ts: `set` is an upsert on the key, so
 * two nodes setting one key leave the value of the later commit.
 */
import { isoAt } from '../clock.js';
import type { AsyncSettingsRepo } from '../store.js';
import type { PgShared } from './shared.js';
import type { Sql } from './sql.js';

const GET = 'SELECT value_json FROM settings WHERE key = $1';
const UPSERT = `INSERT INTO settings (key, value_json, updated_at) VALUES ($1, $2, $3)
  ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at`;
const DELETE = 'DELETE FROM settings WHERE key = $1';
const LIST = 'SELECT key, value_json FROM settings ORDER BY key';

export function createPgSettingsRepo(sql: Sql, shared: PgShared): AsyncSettingsRepo {
  return {
    async get<T>(key: string): Promise<T | undefined> {
      const row = await sql.one<{ value_json: string }>(GET, [key]);
      return row ? (JSON.parse(row.value_json) as T) : undefined;
    },
    async set(key, value) {
      if (value === undefined) throw new Error(`setting ${key}: undefined is not a JSON value`);
      await sql.run(UPSERT, [key, JSON.stringify(value), isoAt(shared.clock)]);
    },
    delete: async (key) => (await sql.run(DELETE, [key])) > 0,
    all: async () => Object.fromEntries((await sql.all<{ key: string; value_json: string }>(LIST)).map((r) => [r.key, JSON.parse(r.value_json) as unknown])),
  };
}
