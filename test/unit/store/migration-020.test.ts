/**
 * Migration 020 on a real database file: the queue index holds only queued and running jobs, and every query of the
 * scheduler and the counts still reads it (no scan of the table, no sort); queue order and counts are as before.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/store/database.js';
import { applyMigrations, appliedVersions } from '../../../src-main/store/migrate.js';
import { MIGRATIONS } from '../../../src-main/store/migrations/index.js';
import { createRepositories } from '../../../src-main/store/repositories.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-m020-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const QUERIES = [
  "SELECT * FROM jobs WHERE status = 'queued' AND error_code IS NOT 'paused' ORDER BY created_at, id LIMIT 4",
  "SELECT * FROM jobs WHERE status = 'queued' AND error_code IS NOT 'paused' AND (created_at, id) > ('a', 'b') ORDER BY created_at, id LIMIT 4",
  "SELECT 1 FROM jobs WHERE status = 'queued' AND error_code IS NOT 'paused' LIMIT 1",
  "SELECT * FROM jobs WHERE status = 'running' ORDER BY created_at, id",
  "SELECT * FROM jobs WHERE status = 'queued' AND error_code IS NOT 'paused' AND deadline_at IS NOT NULL AND deadline_at <= 'x'",
  "SELECT status, error_code, COUNT(*) AS n FROM jobs WHERE (status = 'queued' OR status = 'running') AND (NULL IS NULL OR account_id = NULL) GROUP BY status, error_code",
];

describe('migration 020 (active-jobs-index)', () => {
  it('keeps only queued and running jobs in the queue index, which the scheduler queries still use', () => {
    const path = join(dir, 'voxdesk.db');
    const old = new Database(path);
    applyMigrations(old, MIGRATIONS.filter((m) => m.version < 20));
    old.prepare("INSERT INTO accounts (id, name, created_at) VALUES ('acc', 'a', '2026-01-01T00:00:00.000Z')").run();
    const insert = old.prepare(`INSERT INTO jobs (id, account_id, product, model_id, status, error_code, params_json, input_json, created_at, updated_at)
      VALUES (?, 'acc', 'speech-to-text', 'm', ?, ?, '{}', '{}', ?, ?)`);
    const at = '2026-01-01T00:00:01.000Z';
    insert.run('job_c', 'queued', null, at, at);
    insert.run('job_a', 'queued', 'waiting_for_capacity', at, at);
    insert.run('job_p', 'queued', 'paused', at, at);
    insert.run('job_r', 'running', null, at, at);
    insert.run('job_s', 'succeeded', null, at, at);
    insert.run('job_f', 'failed', 'engine_failed', at, at);
    insert.run('job_z', 'queued', null, '2026-01-01T00:00:00.500Z', at);
    old.close();

    const db = openDatabase(path);
    try {
      expect(appliedVersions(db)).toContain(20);
      const jobs = createRepositories(db).jobs;
      expect(jobs.queued(10).map((r) => r.id)).toEqual(['job_z', 'job_a', 'job_c']);
      expect(jobs.queuedAfter(jobs.queuedAfter(null, 2)[1]!, 2).map((r) => r.id)).toEqual(['job_c']);
      expect(jobs.running().map((r) => r.id)).toEqual(['job_r']);
      expect(jobs.countByStatus('acc')).toEqual([
        { status: 'queued', error_code: null, n: 2 },
        { status: 'queued', error_code: 'paused', n: 1 },
        { status: 'queued', error_code: 'waiting_for_capacity', n: 1 },
        { status: 'running', error_code: null, n: 1 },
      ]);
      // Finished jobs are not in the index.
      const indexed = db.prepare("SELECT COUNT(*) AS n FROM jobs INDEXED BY jobs_active WHERE status = 'queued' OR status = 'running'").get();
      expect(indexed).toEqual({ n: 5 });
      expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'jobs_queue_order'").get()).toBeUndefined();
      for (const sql of QUERIES) {
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((p) => p.detail).join(' ');
        expect(plan, sql).toMatch(/USING INDEX jobs_active/);
        if (sql.includes('ORDER BY')) expect(plan, sql).not.toMatch(/TEMP B-TREE/);
      }
    } finally {
      db.close();
    }
  });
});
