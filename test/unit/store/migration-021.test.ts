/**
 * Migration 021 on a real database file: `transcript_revisions` of an older database (a WITHOUT ROWID table) becomes
 * a rowid table that keeps every revision with all its values, numbered by when it was made; the one-revision-per-
 * number rule still holds (compare-and-set inserts and the unique index), new revisions append after the copied ones,
 * and every lookup reads the (job_id, revision) index instead of scanning the table.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/store/database.js';
import { applyMigrations, appliedVersions } from '../../../src-main/store/migrate.js';
import { MIGRATIONS } from '../../../src-main/store/migrations/index.js';
import { createTranscriptRevisionsRepo, type RevisionRow } from '../../../src-main/store/transcript-revisions-repo.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-m021-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const revision = (jobId: string, n: number, text: string, at: string): RevisionRow => ({
  job_id: jobId,
  revision: n,
  speakers_json: n === 0 ? '{}' : '{"SPEAKER_0":"Alice"}',
  segments_json: JSON.stringify([{ index: 0, start: 0, end: 1.5, text, speaker: 'SPEAKER_0', words: [] }]),
  created_at: at,
});

describe('migration 021 (revisions-rowid)', () => {
  it('keeps every revision and its values, and the revision rules, in a rowid table', () => {
    const path = join(dir, 'voxdesk.db');
    const old = new Database(path);
    applyMigrations(old, MIGRATIONS.filter((m) => m.version < 21));
    old.prepare("INSERT INTO accounts (id, name, created_at) VALUES ('acc', 'a', '2026-01-01T00:00:00.000Z')").run();
    const job = old.prepare(`INSERT INTO jobs (id, account_id, product, model_id, status, params_json, input_json, created_at, updated_at)
      VALUES (?, 'acc', 'speech-to-text', 'm', 'succeeded', '{}', '{}', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`);
    for (const id of ['job_b', 'job_a', 'job_c']) job.run(id);
    const oldRevisions = createTranscriptRevisionsRepo(old);
    // Made in this order: job_b's original, job_a's original, job_b's edit, job_a's two edits, job_b's third revision.
    const made = [
      revision('job_b', 0, 'hello there', '2026-01-01T00:00:01.000Z'),
      revision('job_a', 0, 'good morning', '2026-01-01T00:00:02.000Z'),
      revision('job_b', 1, 'Hello there.', '2026-01-01T00:00:03.000Z'),
      revision('job_a', 1, 'Good morning.', '2026-01-01T00:00:04.000Z'),
      revision('job_a', 2, 'Good morning!', '2026-01-01T00:00:05.000Z'),
      revision('job_b', 2, 'Hello, there.', '2026-01-01T00:00:06.000Z'),
    ];
    for (const row of made) expect(oldRevisions.insertNext(row)).toBe(true);
    const before = (old.prepare('SELECT * FROM transcript_revisions ORDER BY job_id, revision').all() as RevisionRow[]);
    expect(before).toHaveLength(6);
    old.close();

    const db = openDatabase(path);
    try {
      expect(appliedVersions(db)).toContain(21);
      const sql = (db.prepare("SELECT sql FROM sqlite_master WHERE name = 'transcript_revisions'").get() as { sql: string }).sql;
      expect(sql).not.toMatch(/WITHOUT ROWID/i);
      // Every row with every value, numbered in the order the revisions were made.
      const after = db.prepare('SELECT id, job_id, revision, speakers_json, segments_json, created_at FROM transcript_revisions ORDER BY id').all() as (RevisionRow & { id: number })[];
      expect(after.map(({ id: _id, ...row }) => row)).toEqual(made);
      expect(after.map((r) => r.id)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'transcript_revisions_new'").get()).toBeUndefined();

      const revisions = createTranscriptRevisionsRepo(db);
      // Rows read through the repo are exactly the revisions (the rowid is no part of them).
      expect(revisions.get('job_a', 1)).toEqual(made[3]);
      expect(revisions.latest('job_b')).toEqual(made[5]);
      expect(revisions.latestNumber('job_a')).toBe(2);
      expect(revisions.latestNumber('job_c')).toBeNull();
      expect(revisions.withoutRevision(10)).toEqual(['job_c']);

      // Compare-and-set: only the next number is stored, once; the unique index refuses a duplicate written directly.
      expect(revisions.insertNext(revision('job_a', 2, 'stale base', '2026-01-02T00:00:00.000Z'))).toBe(false);
      expect(revisions.insertNext(revision('job_a', 4, 'gap', '2026-01-02T00:00:00.000Z'))).toBe(false);
      expect(revisions.insertNext(revision('job_c', 0, 'first', '2026-01-02T00:00:00.000Z'))).toBe(true);
      expect(revisions.insertNext(revision('job_a', 3, 'next', '2026-01-02T00:00:01.000Z'))).toBe(true);
      expect(() =>
        db.prepare("INSERT INTO transcript_revisions (job_id, revision, speakers_json, segments_json, created_at) VALUES ('job_a', 3, '{}', '[]', 'x')").run(),
      ).toThrow(/UNIQUE/);
      // New revisions append after the copied ones.
      expect(db.prepare("SELECT id FROM transcript_revisions WHERE job_id = 'job_a' AND revision = 3").get()).toEqual({ id: 8 });

      for (const query of [
        "SELECT * FROM transcript_revisions WHERE job_id = 'job_a' AND revision = 1",
        "SELECT * FROM transcript_revisions WHERE job_id = 'job_a' ORDER BY revision DESC LIMIT 1",
        "SELECT MAX(revision) FROM transcript_revisions WHERE job_id = 'job_a'",
      ]) {
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${query}`).all() as { detail: string }[]).map((p) => p.detail).join(' ');
        expect(plan, query).toMatch(/USING (COVERING )?INDEX transcript_revisions_job/);
        expect(plan, query).not.toMatch(/TEMP B-TREE/);
      }
    } finally {
      db.close();
    }
  });
});
