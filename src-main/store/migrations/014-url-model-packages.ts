import type { Migration } from './migration.js';

/**
 * Models people add by URL (POST /v1/local/models, `voxdesk models add`): what to download and the sha256 it must
 * have, kept so the download resumes after a quit like a curated one. installed_models is rebuilt to accept
 * `source = 'url'` for them (SQLite cannot change a CHECK in place); its rows and columns are otherwise unchanged.
 */
export const urlModelPackages: Migration = {
  version: 14,
  name: 'url-model-packages',
  up: `
    CREATE TABLE url_model_packages (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      url TEXT NOT NULL,
      sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
      size_bytes INTEGER,                     -- when given; else learnt from the server
      family TEXT,                            -- null: detected from the files once downloaded
      languages_json TEXT NOT NULL DEFAULT '[]',
      added_at TEXT NOT NULL
    );

    CREATE TABLE installed_models_new (
      id TEXT PRIMARY KEY,
      source TEXT NOT NULL CHECK (source IN ('curated', 'imported', 'url')),
      name TEXT NOT NULL,
      description TEXT NOT NULL DEFAULT '',
      family TEXT NOT NULL,
      capability TEXT NOT NULL,
      languages_json TEXT NOT NULL,
      licence TEXT NOT NULL,
      version TEXT NOT NULL,
      dir TEXT NOT NULL,
      files_json TEXT NOT NULL,
      size_bytes INTEGER NOT NULL,
      sha256_json TEXT NOT NULL,
      verified INTEGER NOT NULL,
      curated_list_version INTEGER,
      installed_at TEXT NOT NULL
    );
    INSERT INTO installed_models_new SELECT id, source, name, description, family, capability, languages_json, licence,
      version, dir, files_json, size_bytes, sha256_json, verified, curated_list_version, installed_at FROM installed_models;
    DROP TABLE installed_models;
    ALTER TABLE installed_models_new RENAME TO installed_models;
  `,
};
