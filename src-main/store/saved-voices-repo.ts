/** Each account's saved voices (migration 029): designed voices' recipes, cloned voices' reference recordings. */
import type { Db } from './db.js';

export interface SavedVoiceRow {
  id: string;
  account_id: string;
  name: string;
  kind: 'designed' | 'cloned';
  model_id: string | null;
  recipe_json: string | null;
  reference_path: string | null;
  reference_bytes: number;
  reference_text: string | null;
  created_at: string;
  updated_at: string;
}

export interface SavedVoicesRepo {
  /** The account's voices, oldest first. */
  list(accountId: string): SavedVoiceRow[];
  /** One of the account's voices; another account's id is undefined, as an unknown one. */
  get(accountId: string, id: string): SavedVoiceRow | undefined;
  create(row: SavedVoiceRow): void;
  /** Renames one of the account's voices; false when it has none with this id. */
  rename(accountId: string, id: string, name: string, at: string): boolean;
  /** Deletes one of the account's voices and answers it (its reference file is the caller's to remove). */
  delete(accountId: string, id: string): SavedVoiceRow | undefined;
  /** Bytes of the account's cloned voices' recordings (counted in its upload quota). */
  referenceBytes(accountId: string): number;
}

export const SAVED_VOICE_COLUMNS =
  'id, account_id, name, kind, model_id, recipe_json, reference_path, reference_bytes, reference_text, created_at, updated_at';

/** PostgreSQL answers bigint as a string: the row as both stores give it. */
export function savedVoiceOf(row: SavedVoiceRow): SavedVoiceRow {
  return { ...row, reference_bytes: Number(row.reference_bytes) };
}

export function createSavedVoicesRepo(db: Db): SavedVoicesRepo {
  const list = db.prepare<[string], SavedVoiceRow>(`SELECT ${SAVED_VOICE_COLUMNS} FROM saved_voices WHERE account_id = ? ORDER BY created_at, id`);
  const get = db.prepare<[string, string], SavedVoiceRow>(`SELECT ${SAVED_VOICE_COLUMNS} FROM saved_voices WHERE account_id = ? AND id = ?`);
  const insert = db.prepare(`INSERT INTO saved_voices (${SAVED_VOICE_COLUMNS}) VALUES (@id, @account_id, @name, @kind, @model_id, @recipe_json,
    @reference_path, @reference_bytes, @reference_text, @created_at, @updated_at)`);
  const rename = db.prepare('UPDATE saved_voices SET name = ?, updated_at = ? WHERE account_id = ? AND id = ?');
  const remove = db.prepare('DELETE FROM saved_voices WHERE account_id = ? AND id = ?');
  const bytes = db.prepare<[string], { n: number | null }>('SELECT SUM(reference_bytes) AS n FROM saved_voices WHERE account_id = ?');
  return {
    list: (accountId) => list.all(accountId),
    get: (accountId, id) => get.get(accountId, id),
    create(row) {
      insert.run(row);
    },
    rename: (accountId, id, name, at) => rename.run(name, at, accountId, id).changes > 0,
    delete(accountId, id) {
      const row = get.get(accountId, id);
      if (row) remove.run(accountId, id);
      return row;
    },
    referenceBytes: (accountId) => bytes.get(accountId)?.n ?? 0,
  };
}
