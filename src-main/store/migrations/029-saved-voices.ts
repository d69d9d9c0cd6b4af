/**
 * Each account's saved voices (issue 33.3, docs/voices.md): a designed voice keeps its recipe (the Kokoro model it
 * blends, base voices and weights, pace, pitch: engines/tts/design/voice-recipe.ts); a cloned voice keeps its
 * reference recording (a file in the data dir's uploads, counted in the account's upload quota) and what it says.
 */
import type { Migration } from './migration.js';

export const savedVoices: Migration = {
  version: 29,
  name: 'saved-voices',
  up: `
    CREATE TABLE saved_voices (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL,
      name TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('designed', 'cloned')),
      model_id TEXT,                          -- designed: the Kokoro its recipe blends
      recipe_json TEXT,                       -- designed: the recipe
      reference_path TEXT,                    -- cloned: the recording's path inside the data dir
      reference_bytes INTEGER NOT NULL DEFAULT 0,
      reference_text TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX saved_voices_account ON saved_voices (account_id, created_at);
  `,
  postgres: `
    CREATE TABLE saved_voices (
      id text COLLATE "C" PRIMARY KEY,
      account_id text COLLATE "C" NOT NULL,
      name text COLLATE "C" NOT NULL,
      kind text COLLATE "C" NOT NULL CHECK (kind IN ('designed', 'cloned')),
      model_id text COLLATE "C",
      recipe_json text COLLATE "C",
      reference_path text COLLATE "C",
      reference_bytes bigint NOT NULL DEFAULT 0,
      reference_text text COLLATE "C",
      created_at text COLLATE "C" NOT NULL,
      updated_at text COLLATE "C" NOT NULL
    );
    CREATE INDEX saved_voices_account ON saved_voices (account_id, created_at);
  `,
};
