/**
 * The PostgreSQL schema at migration 24: every table, column, key and index the SQLite migrations 1–24 build, written
 * at once for a new PostgreSQL database (store/postgres/migrate.ts records it under versions 1–24, so both backends'
 * `schema_migrations` read the same). Later migrations carry their own `postgres` SQL.
 *
 * How SQLite's types are kept, so both backends store, compare and page the same values:
 * - TEXT is `text COLLATE "C"`: SQLite compares text byte by byte (BINARY), and ids (mixed-case base62), ISO-8601
 *   timestamps and names sort and page by that order; a database's own locale collation would not.
 * - INTEGER is `bigint` (micro-dollars, byte counts and millisecond times pass 2^31), read back as numbers
 *   (store/postgres/pool.ts); REAL is `double precision` (SQLite's REAL is 8 bytes); BLOB is `bytea`. JSON stays text.
 * - An `INTEGER PRIMARY KEY` (a rowid) is an identity column: ids are handed out in insert order as SQLite's are.
 *
 * What PostgreSQL has on top: library search's full-text document on each search row (`tsv`, a GIN index, and
 * `body_tokens`, the row's length for ranking) in place of the FTS5 table, and an index on batch_items(job_id), which
 * a job's deletion (its foreign key) and `remote_batches.itemOf` would otherwise scan the table for. The change
 * notifications every write sends are triggers the migrator installs on every table (store/postgres/migrate.ts).
 */
const T = 'text COLLATE "C"';

export const POSTGRES_BASELINE_VERSION = 24;

export const POSTGRES_BASELINE = `
  -- A job's result as jsonb, or NULL when it is not JSON (SQLite's json_valid; PostgreSQL 15 has no IS JSON).
  CREATE FUNCTION voxdesk_try_jsonb(value text) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $fn$
  BEGIN
    RETURN value::jsonb;
  EXCEPTION WHEN others THEN
    RETURN NULL;
  END $fn$;

  CREATE TABLE accounts (
    id ${T} PRIMARY KEY,
    name ${T} NOT NULL UNIQUE,
    created_at ${T} NOT NULL
  );

  CREATE TABLE api_keys (
    id ${T} PRIMARY KEY,
    account_id ${T} NOT NULL REFERENCES accounts(id),
    key_hash ${T} NOT NULL UNIQUE,
    prefix ${T} NOT NULL,
    created_at ${T} NOT NULL,
    revoked_at ${T},
    name ${T},
    last_used_at ${T}
  );

  CREATE TABLE batches (
    id ${T} PRIMARY KEY,
    account_id ${T} NOT NULL REFERENCES accounts(id),
    product ${T} NOT NULL,
    model_id ${T} NOT NULL,
    params_json ${T} NOT NULL,
    status ${T} NOT NULL CHECK (status IN ('open', 'complete')),
    file_count bigint NOT NULL,
    created_at ${T} NOT NULL,
    finished_at ${T},
    language ${T},
    pending_code ${T},
    pending_message ${T},
    price_json ${T},
    estimated_usd_micro bigint,
    reserved_usd_micro bigint,
    reserved_at ${T}
  );
  CREATE INDEX batches_open ON batches(account_id, status);

  CREATE TABLE jobs (
    id ${T} PRIMARY KEY,
    account_id ${T} NOT NULL REFERENCES accounts(id),
    product ${T} NOT NULL,
    model_id ${T} NOT NULL,
    name ${T},
    language ${T},
    status ${T} NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled', 'expired')),
    error_code ${T},
    error_message ${T},
    params_json ${T} NOT NULL,
    input_json ${T} NOT NULL,
    duration_seconds ${T},
    result_json ${T},
    progress double precision,
    batch_id ${T} REFERENCES batches(id),
    attempts bigint NOT NULL DEFAULT 0,
    cancel_requested bigint NOT NULL DEFAULT 0,
    claimed_by ${T},
    estimated_usd_micro bigint,
    deadline_at ${T},
    created_at ${T} NOT NULL,
    started_at ${T},
    finished_at ${T},
    updated_at ${T} NOT NULL,
    input_purged_at ${T},
    pause_requested bigint NOT NULL DEFAULT 0,
    price_json ${T},
    estimated_seconds double precision,
    reserved_usd_micro bigint,
    lease_expires_at ${T}
  );
  CREATE INDEX jobs_unmarked ON jobs(created_at, id) WHERE status = 'queued' AND error_code IS NULL;
  CREATE INDEX jobs_account ON jobs(account_id, created_at);
  CREATE INDEX jobs_batch ON jobs(batch_id);
  CREATE INDEX jobs_inputs_to_purge ON jobs(finished_at) WHERE input_purged_at IS NULL AND finished_at IS NOT NULL;
  CREATE INDEX jobs_reserved ON jobs(status) WHERE reserved_usd_micro IS NOT NULL;
  CREATE INDEX jobs_budget_wait ON jobs(created_at, id) WHERE status = 'queued' AND error_code = 'waiting_for_budget';
  CREATE INDEX jobs_active ON jobs(status, created_at, id) WHERE status = 'queued' OR status = 'running';

  CREATE TABLE batch_items (
    batch_id ${T} NOT NULL REFERENCES batches(id),
    position bigint NOT NULL,
    name ${T},
    job_id ${T} REFERENCES jobs(id),
    pending_input_json ${T},
    estimated_seconds double precision,
    PRIMARY KEY (batch_id, position)
  );
  CREATE INDEX batch_items_pending ON batch_items(batch_id) WHERE job_id IS NULL;
  CREATE INDEX batch_items_job ON batch_items(job_id);

  CREATE TABLE artifacts (
    id ${T} PRIMARY KEY,
    job_id ${T} NOT NULL REFERENCES jobs(id),
    token ${T} NOT NULL UNIQUE,
    file_name ${T} NOT NULL,
    path ${T} NOT NULL,
    content_type ${T} NOT NULL,
    bytes bigint NOT NULL,
    duration_seconds ${T},
    sample_rate bigint,
    channels bigint,
    created_at ${T} NOT NULL,
    expires_at ${T} NOT NULL,
    deleted_at ${T}
  );
  CREATE INDEX artifacts_job ON artifacts(job_id);
  CREATE INDEX artifacts_expiry ON artifacts(expires_at) WHERE deleted_at IS NULL;

  CREATE TABLE idempotency_keys (
    account_id ${T} NOT NULL REFERENCES accounts(id),
    key ${T} NOT NULL,
    request_hash ${T} NOT NULL,
    resource_type ${T} NOT NULL CHECK (resource_type IN ('job', 'batch')),
    resource_id ${T} NOT NULL,
    created_at ${T} NOT NULL,
    expires_at ${T} NOT NULL,
    PRIMARY KEY (account_id, key)
  );

  CREATE TABLE ledger (
    id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    account_id ${T} NOT NULL REFERENCES accounts(id),
    job_id ${T},
    batch_id ${T},
    model_id ${T} NOT NULL,
    kind ${T} NOT NULL CHECK (kind IN ('request_fee', 'usage', 'option')),
    option_name ${T} NOT NULL DEFAULT '',
    seconds double precision NOT NULL DEFAULT 0,
    amount_usd_micro bigint NOT NULL,
    created_at ${T} NOT NULL,
    provider ${T} NOT NULL DEFAULT 'local' CHECK (provider IN ('local', 'remote')),
    product ${T}
  );
  CREATE UNIQUE INDEX ledger_once_per_job ON ledger(job_id, kind, option_name) WHERE job_id IS NOT NULL;
  CREATE UNIQUE INDEX ledger_once_per_batch ON ledger(batch_id, kind) WHERE job_id IS NULL AND batch_id IS NOT NULL;
  CREATE INDEX ledger_remote_time ON ledger(created_at) WHERE provider = 'remote';
  CREATE INDEX ledger_account_time ON ledger(account_id, created_at);

  CREATE TABLE settings (
    key ${T} PRIMARY KEY,
    value_json ${T} NOT NULL,
    updated_at ${T} NOT NULL
  );

  CREATE TABLE installed_models (
    id ${T} PRIMARY KEY,
    source ${T} NOT NULL CHECK (source IN ('curated', 'imported', 'url')),
    name ${T} NOT NULL,
    description ${T} NOT NULL DEFAULT '',
    family ${T} NOT NULL,
    capability ${T} NOT NULL,
    languages_json ${T} NOT NULL,
    licence ${T} NOT NULL,
    version ${T} NOT NULL,
    dir ${T} NOT NULL,
    files_json ${T} NOT NULL,
    size_bytes bigint NOT NULL,
    sha256_json ${T} NOT NULL,
    verified bigint NOT NULL,
    curated_list_version bigint,
    installed_at ${T} NOT NULL
  );

  CREATE TABLE downloads (
    model_id ${T} PRIMARY KEY,
    status ${T} NOT NULL CHECK (status IN ('downloading', 'failed')),
    file_index bigint NOT NULL DEFAULT 0,
    file_bytes_done bigint NOT NULL DEFAULT 0,
    bytes_done bigint NOT NULL DEFAULT 0,
    bytes_total bigint NOT NULL,
    etag ${T},
    error_code ${T},
    error_message ${T},
    started_at ${T} NOT NULL,
    updated_at ${T} NOT NULL
  );

  CREATE TABLE url_model_packages (
    id ${T} PRIMARY KEY,
    name ${T} NOT NULL,
    url ${T} NOT NULL,
    sha256 ${T} NOT NULL CHECK (char_length(sha256) = 64),
    size_bytes bigint,
    family ${T},
    languages_json ${T} NOT NULL DEFAULT '[]',
    added_at ${T} NOT NULL
  );

  CREATE TABLE remote_catalogue (
    endpoint_url ${T} NOT NULL,
    model_id ${T} NOT NULL,
    record_json ${T} NOT NULL,
    fetched_at ${T} NOT NULL,
    PRIMARY KEY (endpoint_url, model_id)
  );

  CREATE TABLE remote_jobs (
    job_id ${T} PRIMARY KEY REFERENCES jobs(id),
    endpoint_url ${T} NOT NULL,
    product ${T} NOT NULL,
    remote_model_id ${T} NOT NULL,
    idempotency_key ${T} NOT NULL,
    remote_job_id ${T},
    remote_status ${T},
    submissions bigint NOT NULL DEFAULT 0,
    last_error ${T},
    created_at ${T} NOT NULL,
    updated_at ${T} NOT NULL
  );
  CREATE INDEX remote_jobs_remote_id ON remote_jobs(remote_job_id);

  CREATE TABLE remote_batches (
    batch_id ${T} PRIMARY KEY REFERENCES batches(id),
    endpoint_url ${T} NOT NULL,
    product ${T} NOT NULL,
    remote_model_id ${T} NOT NULL,
    idempotency_key ${T} NOT NULL,
    positions_json ${T} NOT NULL,
    remote_batch_id ${T},
    remote_status ${T},
    submissions bigint NOT NULL DEFAULT 0,
    rejected_code ${T},
    last_error ${T},
    created_at ${T} NOT NULL,
    updated_at ${T} NOT NULL
  );

  CREATE TABLE job_segments (
    job_id ${T} NOT NULL REFERENCES jobs(id),
    idx bigint NOT NULL,
    start_seconds double precision NOT NULL,
    end_seconds double precision NOT NULL,
    resume_seconds double precision NOT NULL,
    text ${T} NOT NULL,
    words_json ${T},
    language ${T},
    created_at ${T} NOT NULL,
    PRIMARY KEY (job_id, idx)
  );

  CREATE TABLE secrets (
    name ${T} PRIMARY KEY,
    sealed bytea NOT NULL,
    sealed_by ${T} NOT NULL,
    updated_at ${T} NOT NULL
  );

  CREATE TABLE transcript_revisions (
    id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    job_id ${T} NOT NULL REFERENCES jobs(id),
    revision bigint NOT NULL,
    speakers_json ${T} NOT NULL,
    segments_json ${T} NOT NULL,
    created_at ${T} NOT NULL
  );
  CREATE UNIQUE INDEX transcript_revisions_job ON transcript_revisions(job_id, revision);

  CREATE TABLE transcript_search_rows (
    id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    job_id ${T} NOT NULL REFERENCES jobs(id),
    account_id ${T} NOT NULL,
    job_created_at ${T} NOT NULL,
    job_name ${T},
    segment_idx bigint,
    start_seconds double precision,
    end_seconds double precision,
    body ${T} NOT NULL,
    tsv tsvector NOT NULL,
    body_tokens bigint NOT NULL
  );
  CREATE INDEX transcript_search_rows_job ON transcript_search_rows (job_id, segment_idx);
  CREATE INDEX transcript_search_rows_tsv ON transcript_search_rows USING gin (tsv);

  CREATE TABLE transcript_search_pending (
    job_id ${T} PRIMARY KEY REFERENCES jobs(id)
  );

  CREATE TABLE watch_files (
    id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    folder ${T} NOT NULL,
    path ${T} NOT NULL,
    size_bytes bigint NOT NULL,
    mtime_ms bigint NOT NULL,
    sha256 ${T} CHECK (sha256 IS NULL OR char_length(sha256) = 64),
    state ${T} NOT NULL CHECK (state IN ('queued', 'done', 'failed', 'duplicate')),
    job_id ${T},
    duplicate_of bigint,
    error_code ${T},
    error_message ${T},
    formats_json ${T} NOT NULL DEFAULT '[]',
    output_dir ${T},
    outputs_json ${T} NOT NULL DEFAULT '[]',
    seen_at ${T} NOT NULL,
    updated_at ${T} NOT NULL,
    UNIQUE (folder, path, size_bytes, mtime_ms)
  );
  CREATE INDEX watch_files_content ON watch_files (folder, sha256);
  CREATE INDEX watch_files_job ON watch_files (job_id);
  CREATE INDEX watch_files_state ON watch_files (state);

  CREATE TABLE live_reservations (
    id ${T} PRIMARY KEY,
    account_id ${T} NOT NULL,
    model_id ${T} NOT NULL,
    reserved_usd_micro bigint NOT NULL CHECK (reserved_usd_micro >= 0),
    created_at ${T} NOT NULL,
    renewed_at ${T} NOT NULL
  );
`;
