import type { Migration } from './migration.js';

/**
 * Keys the person controls and secrets at rest. API keys get a name (what the person called them) and the time they
 * were last used (written at most once a minute per key, so a busy key does not turn every request into a write).
 * Secrets (the hosted service's key, and any later one) live sealed in `secrets`: the column holds ciphertext only,
 * and `sealed_by` says which cipher can open it (store/secrets/). Moving a plain value from the settings into this
 * table needs the cipher, so it happens at start-up (store/secrets/secret-store.ts), not in SQL.
 */
export const keysAndSecrets: Migration = {
  version: 8,
  name: 'keys-and-secrets',
  up: `
    ALTER TABLE api_keys ADD COLUMN name TEXT;            -- keys create --name, VOXDESK_API_KEY, desktop app
    ALTER TABLE api_keys ADD COLUMN last_used_at TEXT;    -- at most a minute behind

    CREATE TABLE secrets (
      name TEXT PRIMARY KEY,                  -- e.g. remote.key
      sealed BLOB NOT NULL,                   -- ciphertext (with its nonce and tag); never the value
      sealed_by TEXT NOT NULL,                -- the cipher that sealed it: electron-safe-storage, os-keyring, key-file
      updated_at TEXT NOT NULL
    );
  `,
};
