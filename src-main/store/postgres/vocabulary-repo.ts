/** Each account's vocabulary on PostgreSQL, with the semantics of store/vocabulary-repo.ts (`put` is an upsert). */
import { isoAt } from '../clock.js';
import type { Async } from '../store.js';
import { vocabularyOf, type VocabularyRepo } from '../vocabulary-repo.js';
import type { PgShared } from './shared.js';
import type { Sql } from './sql.js';

const GET = 'SELECT hotwords_json, replacements_json FROM vocabularies WHERE account_id = $1';
const UPSERT = `INSERT INTO vocabularies (account_id, hotwords_json, replacements_json, updated_at) VALUES ($1, $2, $3, $4)
  ON CONFLICT (account_id) DO UPDATE SET hotwords_json = excluded.hotwords_json, replacements_json = excluded.replacements_json,
    updated_at = excluded.updated_at`;

export function createPgVocabularyRepo(sql: Sql, shared: PgShared): Async<VocabularyRepo> {
  return {
    async get(accountId) {
      const row = await sql.one<{ hotwords_json: string; replacements_json: string }>(GET, [accountId]);
      return row ? vocabularyOf(row) : undefined;
    },
    async put(accountId, vocabulary) {
      await sql.run(UPSERT, [accountId, JSON.stringify(vocabulary.hotwords), JSON.stringify(vocabulary.replacements), isoAt(shared.clock)]);
    },
  };
}
