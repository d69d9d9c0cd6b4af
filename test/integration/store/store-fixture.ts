/**
 * The contract suites' two stores: each test gets a fresh store of the backend it runs on, through the same
 * asynchronous interface the job engine uses — SQLite on a new file, or PostgreSQL on this file's database (made once
 * per file on the worker's private cluster, test/helpers/postgres.ts, and emptied before each test).
 *
 * `another()` is a second node: on PostgreSQL a second store on the same database (its own pool, its own change
 * feed), which is what the concurrency rules are about; on SQLite the same store (one process owns the file, and its
 * transactions take turns on the one connection).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { openDatabase } from '../../../src-main/store/database.js';
import { createPostgresStore, type PostgresStore } from '../../../src-main/store/postgres/postgres-store.js';
import { createSqliteStore, type SqliteStore } from '../../../src-main/store/sqlite-store.js';
import type { JobRow } from '../../../src-main/store/jobs-repo.js';
import type { Store } from '../../../src-main/store/store.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js';

export type Backend = 'sqlite' | 'postgres';

export const BACKENDS: readonly [Backend][] = [['sqlite'], ['postgres']];

/** The time rows are stamped with; tests move it. */
export interface TestClock {
  now: number;
  set(iso: string): void;
  advance(ms: number): void;
}

export interface StoreFixture {
  readonly backend: Backend;
  readonly store: Store;
  readonly clock: TestClock;
  /** Another node on the same data (see the docblock). */
  another(): Promise<Store>;
  /** Raw rows for looking into the database (`$1`-style placeholders on both: they are rewritten for SQLite). */
  rows<T>(text: string, values?: unknown[]): Promise<T[]>;
}

const START = '2026-05-01T12:00:00.000Z';

/** Registers the hooks that give each test of the calling `describe` a fresh store of `backend`. */
export function useStore(backend: Backend): StoreFixture {
  const clock: TestClock = {
    now: Date.parse(START),
    set(iso) {
      this.now = Date.parse(iso);
    },
    advance(ms) {
      this.now += ms;
    },
  };
  const clockFn = (): Date => new Date(clock.now);
  let database: TestDatabase | null = null;
  let admin: pg.Client | null = null;
  let dir = '';
  let store: Store | null = null;
  const others: Store[] = [];

  if (backend === 'postgres') {
    beforeAll(async () => {
      database = await createTestDatabase('contract');
      admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
    });
    afterAll(async () => {
      await admin?.end();
      await database?.drop();
    });
  }

  beforeEach(async () => {
    clock.set(START);
    if (backend === 'sqlite') {
      dir = mkdtempSync(join(tmpdir(), 'voxdesk-contract-'));
      const file = join(dir, 'v.db');
      store = createSqliteStore(openDatabase(file), file, clockFn);
      return;
    }
    const tables = await admin!.query<{ name: string }>(
      "SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'schema_migrations'",
    );
    if (tables.rows.length > 0) {
      await admin!.query(`TRUNCATE ${tables.rows.map((t) => `"${t.name}"`).join(', ')} RESTART IDENTITY CASCADE`);
    }
    store = await createPostgresStore(database!.url, { clock: clockFn, poolSize: 4 });
  });

  afterEach(async () => {
    for (const other of others.splice(0)) await other.close();
    await store?.close();
    store = null;
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = '';
  });

  return {
    backend,
    get store(): Store {
      if (!store) throw new Error('no store outside a test');
      return store;
    },
    clock,
    async another() {
      if (backend === 'sqlite') return store!;
      const other = await createPostgresStore(database!.url, { clock: clockFn, poolSize: 4 });
      others.push(other);
      return other;
    },
    async rows<T>(text: string, values: unknown[] = []): Promise<T[]> {
      if (backend === 'postgres') return (await (store as PostgresStore).pool.query({ text, values })).rows as T[];
      const sqlite = store as SqliteStore;
      return sqlite.sync.db.prepare(text.replace(/\$\d+/g, '?')).all(...values) as T[];
    },
  };
}

/** A job row as the intake makes one (queued, nothing measured yet); `overrides` set what a test is about. */
export function jobRow(accountId: string, id: string, overrides: Partial<JobRow> = {}): JobRow {
  return {
    id,
    account_id: accountId,
    product: 'speech-to-text',
    model_id: 'tiny',
    name: `job ${id}`,
    language: null,
    status: 'queued',
    error_code: null,
    error_message: null,
    params_json: '{}',
    input_json: '{"kind":"text","text":"hello"}',
    duration_seconds: null,
    result_json: null,
    progress: null,
    batch_id: null,
    attempts: 0,
    cancel_requested: 0,
    pause_requested: 0,
    claimed_by: null,
    lease_expires_at: null,
    estimated_usd_micro: null,
    estimated_seconds: null,
    price_json: null,
    reserved_usd_micro: null,
    deadline_at: null,
    created_at: START,
    started_at: null,
    finished_at: null,
    updated_at: START,
    ...overrides,
  };
}

/** `job_` ids that sort as numbered (and as the backends compare text: byte by byte). */
export const jobId = (n: number): string => `job_${String(n).padStart(6, '0')}`;
