/**
 * Migration 016 on a real database file: the queue's whole order (status, created_at, id) is one index, so the
 * scheduler's page of the queue is read in order from a key without sorting the queue, and queued jobs of an older
 * database come out in the same order as before (created_at, then id for jobs of the same millisecond).
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
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-m016-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('migration 016 (queue-order)', () => {
  it('keeps the queue order of an older database and pages through it from a key without sorting', () => {
    const path = join(dir, 'voxdesk.db');
    const old = new Database(path);
    applyMigrations(old, MIGRATIONS.filter((m) => m.version < 16));
    old.prepare("INSERT INTO accounts (id, name, created_at) VALUES ('acc', 'a', '2026-01-01T00:00:00.000Z')").run();
    const insert = old.prepare(`INSERT INTO jobs (id, account_id, product, model_id, status, error_code, params_json, input_json, created_at, updated_at)
      VALUES (?, 'acc', 'speech-to-text', 'm', ?, ?, '{}', '{}', ?, ?)`);
    // Three jobs in one millisecond (ordered by id), one paused, one running, one earlier.
    const at = '2026-01-01T00:00:01.000Z';
    insert.run('job_c', 'queued', null, at, at);
    insert.run('job_a', 'queued', 'waiting_for_capacity', at, at);
    insert.run('job_b', 'queued', 'paused', at, at);
    insert.run('job_r', 'running', null, at, at);
    insert.run('job_z', 'queued', null, '2026-01-01T00:00:00.500Z', at);
    old.close();

    const db = openDatabase(path);
    try {
      expect(appliedVersions(db)).toContain(16);
      const jobs = createRepositories(db).jobs;
      expect(jobs.queued(10).map((r) => r.id)).toEqual(['job_z', 'job_a', 'job_c']);
      const first = jobs.queuedAfter(null, 2);
      expect(first.map((r) => r.id)).toEqual(['job_z', 'job_a']);
      expect(jobs.queuedAfter(first[1]!, 2).map((r) => r.id)).toEqual(['job_c']);
      const plan = db
        .prepare("EXPLAIN QUERY PLAN SELECT * FROM jobs WHERE status = 'queued' AND (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT 5")
        .all('x', 'y') as { detail: string }[];
      expect(plan.map((p) => p.detail).join(' ')).not.toMatch(/TEMP B-TREE/);
      expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'jobs_queue'").get()).toBeUndefined();
    } finally {
      db.close();
    }
  });
});
