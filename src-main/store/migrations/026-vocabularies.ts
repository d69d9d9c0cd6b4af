/**
 * Each account's vocabulary (issue 29.4): hotwords for the recognizers that can be biased, and the replacements made
 * in every new transcript. One row per account that has one; an account without a row has an empty vocabulary. The
 * lists are JSON (checked by common/vocabulary.ts before they are written), read whole on each transcription.
 */
import type { Migration } from './migration.js';

export const vocabularies: Migration = {
  version: 26,
  name: 'vocabularies',
  up: `
    CREATE TABLE vocabularies (
      account_id TEXT PRIMARY KEY,
      hotwords_json TEXT NOT NULL,            -- JSON string[]
      replacements_json TEXT NOT NULL,        -- JSON [{from, to}]
      updated_at TEXT NOT NULL
    );
  `,
  postgres: `
    CREATE TABLE vocabularies (
      account_id text COLLATE "C" PRIMARY KEY,
      hotwords_json text COLLATE "C" NOT NULL,
      replacements_json text COLLATE "C" NOT NULL,
      updated_at text COLLATE "C" NOT NULL
    );
  `,
};
