import type { Migration } from './migration.js';

/** The model manager: installed model packages and downloads in progress (resumed after a quit). */
export const models: Migration = {
  version: 2,
  name: 'models',
  up: `
    CREATE TABLE installed_models (
      id TEXT PRIMARY KEY,
      source TEXT NOT NULL CHECK (source IN ('curated', 'imported')),
      name TEXT NOT NULL,
      description TEXT NOT NULL DEFAULT '',
      family TEXT NOT NULL,
      capability TEXT NOT NULL,             -- asr, tts, noise_reduction, or support (VAD, embeddings, segmentation)
      languages_json TEXT NOT NULL,
      licence TEXT NOT NULL,
      version TEXT NOT NULL,
      dir TEXT NOT NULL,                    -- absolute path of the package folder
      files_json TEXT NOT NULL,             -- role -> path relative to dir (encoder, tokens, model, ...)
      size_bytes INTEGER NOT NULL,          -- bytes on disk
      sha256_json TEXT NOT NULL,            -- downloaded file name -> sha256 (computed when the list had none)
      verified INTEGER NOT NULL,            -- 1 when every download matched a published sha256
      curated_list_version INTEGER,         -- CURATED_LIST_VERSION at install time (null for imports)
      installed_at TEXT NOT NULL
    );

    CREATE TABLE downloads (
      model_id TEXT PRIMARY KEY,
      status TEXT NOT NULL CHECK (status IN ('downloading', 'failed')),
      file_index INTEGER NOT NULL DEFAULT 0,  -- file of the package being fetched
      file_bytes_done INTEGER NOT NULL DEFAULT 0,
      bytes_done INTEGER NOT NULL DEFAULT 0,  -- whole package
      bytes_total INTEGER NOT NULL,
      etag TEXT,                              -- validator of the partial file (If-Range on resume)
      error_code TEXT,
      error_message TEXT,
      started_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
  `,
};
