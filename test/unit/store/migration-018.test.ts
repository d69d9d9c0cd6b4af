/**
 * Migration 018 on a real database file: the unmarked queued jobs (new or requeued, no waiting code) of an older
 * database come out in queue order (created_at, then id within a millisecond), read in index order without a sort;
 * and the existence checks a scheduling pass makes first (anything queued, any held batch item) answer correctly.
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
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-m018-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('migration 018 (unmarked-order)', () => {
  it('reads the unmarked queued jobs of an older database in queue order without sorting them', () => {
    const path = join(dir, 'voxdesk.db');
    const old = new Database(path);
    applyMigrations(old, MIGRATIONS.filter((m) => m.version < 18));
    old.prepare("INSERT INTO accounts (id, name, created_at) VALUES ('acc', 'a', '2026-01-01T00:00:00.000Z')").run();
    const insert = old.prepare(`INSERT INTO jobs (id, account_id, product, model_id, status, error_code, params_json, input_json, created_at, updated_at)
      VALUES (?, 'acc', 'speech-to-text', 'm', ?, ?, '{}', '{}', ?, ?)`);
    const at = '2026-01-01T00:00:01.000Z';
    insert.run('job_c', 'queued', null, at, at);
    insert.run('job_a', 'queued', null, at, at);
    insert.run('job_b', 'queued', 'waiting_for_capacity', at, at);
    insert.run('job_p', 'queued', 'paused', at, at);
    insert.run('job_r', 'running', null, at, at);
    insert.run('job_z', 'queued', null, '2026-01-01T00:00:00.500Z', at);
    old.close();

    const db = openDatabase(path);
    try {
      expect(appliedVersions(db)).toContain(18);
      const repos = createRepositories(db);
      expect(repos.jobs.queuedUnmarked(10).map((r) => r.id)).toEqual(['job_z', 'job_a', 'job_c']);
      expect(repos.jobs.queuedUnmarked(2).map((r) => r.id)).toEqual(['job_z', 'job_a']);
      const plan = db
        .prepare("EXPLAIN QUERY PLAN SELECT * FROM jobs INDEXED BY jobs_unmarked WHERE status = 'queued' AND error_code IS NULL ORDER BY created_at, id LIMIT 5")
        .all() as { detail: string }[];
      expect(plan.map((p) => p.detail).join(' ')).not.toMatch(/TEMP B-TREE/);

      expect(repos.jobs.anyQueued()).toBe(true);
      db.prepare("UPDATE jobs SET status = 'cancelled' WHERE id <> 'job_p'").run();
      expect(repos.jobs.anyQueued()).toBe(false); // a paused job is left alone until resumed

      expect(repos.batches.withPendingItems(10)).toEqual([]);
      db.prepare(`INSERT INTO batches (id, account_id, product, model_id, params_json, status, file_count, created_at)
        VALUES ('bat_1', 'acc', 'speech-to-text', 'm', '{}', 'open', 1, ?)`).run(at);
      db.prepare("INSERT INTO batch_items (batch_id, position, name, job_id, pending_input_json) VALUES ('bat_1', 0, 'a.wav', NULL, '{}')").run();
      expect(repos.batches.withPendingItems(10)).toEqual(['bat_1']);
    } finally {
      db.close();
    }
  });
});
