import type { Migration } from './migration.js';

/** Accounts, hashed API keys, jobs, batches and their items, artifacts, idempotency keys and the ledger. */
export const initial: Migration = {
  version: 1,
  name: 'initial',
  up: `
    CREATE TABLE accounts (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL UNIQUE,
      created_at TEXT NOT NULL
    );

    CREATE TABLE api_keys (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      key_hash TEXT NOT NULL UNIQUE,          -- sha256 of the key; the key itself is never stored
      prefix TEXT NOT NULL,                   -- first characters, to recognise a key in a list
      created_at TEXT NOT NULL,
      revoked_at TEXT
    );

    CREATE TABLE batches (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      product TEXT NOT NULL,
      model_id TEXT NOT NULL,
      params_json TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('open', 'complete')),
      file_count INTEGER NOT NULL,
      created_at TEXT NOT NULL,
      finished_at TEXT
    );
    CREATE INDEX batches_open ON batches(account_id, status);

    CREATE TABLE jobs (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      product TEXT NOT NULL,
      model_id TEXT NOT NULL,
      name TEXT,
      language TEXT,
      status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled', 'expired')),
      error_code TEXT,
      error_message TEXT,
      params_json TEXT NOT NULL,
      input_json TEXT NOT NULL,               -- EngineInput: text or uploaded file path and name
      duration_seconds TEXT,                  -- decimal string, null until measured
      result_json TEXT,
      progress REAL,
      batch_id TEXT REFERENCES batches(id),
      attempts INTEGER NOT NULL DEFAULT 0,    -- runs started; a crash is retried once
      cancel_requested INTEGER NOT NULL DEFAULT 0,
      claimed_by TEXT,                        -- the service instance running it (host:pid:random); null unless running
      estimated_usd_micro INTEGER,            -- priced before queueing (text length for TTS)
      deadline_at TEXT,                       -- after this a job that has not finished is expired
      created_at TEXT NOT NULL,
      started_at TEXT,
      finished_at TEXT,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX jobs_queue ON jobs(status, created_at);
    CREATE INDEX jobs_unmarked ON jobs(created_at) WHERE status = 'queued' AND error_code IS NULL;
    CREATE INDEX jobs_account ON jobs(account_id, created_at);
    CREATE INDEX jobs_batch ON jobs(batch_id);

    CREATE TABLE batch_items (
      batch_id TEXT NOT NULL REFERENCES batches(id),
      position INTEGER NOT NULL,
      name TEXT,
      job_id TEXT REFERENCES jobs(id),       -- null while the item is pending
      PRIMARY KEY (batch_id, position)
    );

    CREATE TABLE artifacts (
      id TEXT PRIMARY KEY,
      job_id TEXT NOT NULL REFERENCES jobs(id),
      token TEXT NOT NULL UNIQUE,             -- unguessable part of the download link
      file_name TEXT NOT NULL,
      path TEXT NOT NULL,
      content_type TEXT NOT NULL,
      bytes INTEGER NOT NULL,
      duration_seconds TEXT,
      sample_rate INTEGER,
      channels INTEGER,
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      deleted_at TEXT
    );
    CREATE INDEX artifacts_job ON artifacts(job_id);
    CREATE INDEX artifacts_expiry ON artifacts(expires_at) WHERE deleted_at IS NULL;

    CREATE TABLE idempotency_keys (
      account_id TEXT NOT NULL REFERENCES accounts(id),
      key TEXT NOT NULL,
      request_hash TEXT NOT NULL,
      resource_type TEXT NOT NULL CHECK (resource_type IN ('job', 'batch')),
      resource_id TEXT NOT NULL,
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      PRIMARY KEY (account_id, key)
    );

    CREATE TABLE ledger (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      job_id TEXT REFERENCES jobs(id),
      batch_id TEXT REFERENCES batches(id),
      model_id TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('request_fee', 'usage', 'option')),
      option_name TEXT NOT NULL DEFAULT '',
      seconds REAL NOT NULL DEFAULT 0,
      amount_usd_micro INTEGER NOT NULL,
      created_at TEXT NOT NULL
    );
    -- one charge of each kind per job and per batch: a retry or a restart can never charge twice
    CREATE UNIQUE INDEX ledger_once_per_job ON ledger(job_id, kind, option_name) WHERE job_id IS NOT NULL;
    CREATE UNIQUE INDEX ledger_once_per_batch ON ledger(batch_id, kind) WHERE job_id IS NULL AND batch_id IS NOT NULL;

    CREATE TABLE settings (
      key TEXT PRIMARY KEY,
      value_json TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
  `,
};
