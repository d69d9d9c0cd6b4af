/** Each account's vocabulary (migration 026): one row per account, its two lists as JSON. */
import type { Vocabulary } from '../common/vocabulary.js';
import { isoAt, systemClock, type Clock } from './clock.js';
import type { Db } from './db.js';

export interface VocabularyRepo {
  /** The account's vocabulary, or undefined when it never saved one. */
  get(accountId: string): Vocabulary | undefined;
  /** Replaces the account's vocabulary whole. */
  put(accountId: string, vocabulary: Vocabulary): void;
}

interface Row {
  hotwords_json: string;
  replacements_json: string;
}

export function vocabularyOf(row: Row): Vocabulary {
  return { hotwords: JSON.parse(row.hotwords_json) as Vocabulary['hotwords'], replacements: JSON.parse(row.replacements_json) as Vocabulary['replacements'] };
}

export function createVocabularyRepo(db: Db, clock: Clock = systemClock): VocabularyRepo {
  const get = db.prepare<[string], Row>('SELECT hotwords_json, replacements_json FROM vocabularies WHERE account_id = ?');
  const upsert = db.prepare(
    `INSERT INTO vocabularies (account_id, hotwords_json, replacements_json, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT(account_id) DO UPDATE SET hotwords_json = excluded.hotwords_json, replacements_json = excluded.replacements_json,
       updated_at = excluded.updated_at`,
  );
  return {
    get(accountId) {
      const row = get.get(accountId);
      return row ? vocabularyOf(row) : undefined;
    },
    put(accountId, vocabulary) {
      upsert.run(accountId, JSON.stringify(vocabulary.hotwords), JSON.stringify(vocabulary.replacements), isoAt(clock));
    },
  };
}
