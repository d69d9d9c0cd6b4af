/** Saved voices on PostgreSQL, with the semantics of store/saved-voices-repo.ts. */
import { SAVED_VOICE_COLUMNS, savedVoiceOf, type SavedVoiceRow, type SavedVoicesRepo } from '../saved-voices-repo.js';
import type { Async } from '../store.js';
import type { PgShared } from './shared.js';
import type { Sql } from './sql.js';

const INSERT = `INSERT INTO saved_voices (${SAVED_VOICE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`;

export function createPgSavedVoicesRepo(sql: Sql, _shared: PgShared): Async<SavedVoicesRepo> {
  return {
    async list(accountId) {
      const rows = await sql.all<SavedVoiceRow>(`SELECT ${SAVED_VOICE_COLUMNS} FROM saved_voices WHERE account_id = $1 ORDER BY created_at, id`, [accountId]);
      return rows.map(savedVoiceOf);
    },
    async get(accountId, id) {
      const row = await sql.one<SavedVoiceRow>(`SELECT ${SAVED_VOICE_COLUMNS} FROM saved_voices WHERE account_id = $1 AND id = $2`, [accountId, id]);
      return row ? savedVoiceOf(row) : undefined;
    },
    async create(r) {
      await sql.run(INSERT, [r.id, r.account_id, r.name, r.kind, r.model_id, r.recipe_json, r.reference_path, r.reference_bytes, r.reference_text, r.created_at, r.updated_at]);
    },
    async rename(accountId, id, name, at) {
      return (await sql.run('UPDATE saved_voices SET name = $1, updated_at = $2 WHERE account_id = $3 AND id = $4', [name, at, accountId, id])) > 0;
    },
    async delete(accountId, id) {
      const rows = await sql.write<SavedVoiceRow>(`DELETE FROM saved_voices WHERE account_id = $1 AND id = $2 RETURNING ${SAVED_VOICE_COLUMNS}`, [accountId, id]);
      return rows[0] ? savedVoiceOf(rows[0]) : undefined;
    },
    async referenceBytes(accountId) {
      return Number((await sql.one<{ n: string | null }>('SELECT COALESCE(SUM(reference_bytes), 0) AS n FROM saved_voices WHERE account_id = $1', [accountId]))?.n ?? 0);
    },
  };
}
