/** Migration 015 and the watch-files repository on a real database file: identity, content, settling, counts. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src-main/store/database.js';
import { appliedVersions } from '../../../src-main/store/migrate.js';
import { createWatchFilesRepo, type WatchFilesRepo } from '../../../src-main/store/watch-files-repo.js';

let dir: string;
let db: Db;
let repo: WatchFilesRepo;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-m015-'));
  db = openDatabase(join(dir, 'voxdesk.db'));
  repo = createWatchFilesRepo(db);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const sha = (c: string): string => c.repeat(64);
const v = (path: string, sizeBytes = 10, mtimeMs = 1000.7) => ({ folder: '/rec', path, sizeBytes, mtimeMs });
const plan = { formats: ['srt', 'txt'], outputDir: null };

describe('watch files (migration 015)', () => {
  it('is applied, and knows a version of a file by folder, path, size and whole-millisecond mtime', () => {
    expect(appliedVersions(db)).toContain(15);
    const id = repo.insertQueued(v('/rec/a.wav'), sha('a'), 'job_1', plan);
    expect(repo.seen(v('/rec/a.wav', 10, 1000.2))).toMatchObject({ id, state: 'queued', job_id: 'job_1', mtime_ms: 1000, formats_json: '["srt","txt"]' });
    expect(repo.seen(v('/rec/a.wav', 11))).toBeUndefined();
    expect(repo.seen(v('/rec/a.wav', 10, 2000))).toBeUndefined();
    expect(repo.seen({ ...v('/rec/a.wav'), folder: '/other' })).toBeUndefined();
    expect(() => repo.insertQueued(v('/rec/a.wav'), sha('a'), 'job_2', plan)).toThrow(/UNIQUE/);
  });

  it('finds the same content among queued and done files only, and records duplicates against the original', () => {
    const failed = repo.insertFailed(v('/rec/f.wav'), sha('f'), 'engine_failed', 'boom');
    expect(repo.sameContent('/rec', sha('f'))).toBeUndefined();
    const original = repo.insertQueued(v('/rec/a.wav'), sha('a'), 'job_1', plan);
    const row = repo.sameContent('/rec', sha('a'))!;
    expect(row.id).toBe(original);
    expect(repo.sameContent('/elsewhere', sha('a'))).toBeUndefined();
    const copy = repo.insertDuplicate(v('/rec/copy.wav'), sha('a'), row);
    expect(repo.seen(v('/rec/copy.wav'))).toMatchObject({ id: copy, state: 'duplicate', job_id: 'job_1', duplicate_of: original });
    repo.markDone(original, ['/rec/a.srt']);
    expect(repo.sameContent('/rec', sha('a'))!.state).toBe('done');
    expect(repo.countsByFolder().get('/rec')).toEqual({ queued: 0, done: 1, failed: 1, duplicate: 1 });
    expect(repo.lastFailure('/rec')).toMatchObject({ id: failed, error_code: 'engine_failed' });
  });

  it('settles a queued row once: done or failed, with the files written', () => {
    const id = repo.insertQueued(v('/rec/a.wav'), sha('a'), 'job_1', plan);
    expect(repo.queuedForJob('job_1').map((r) => r.id)).toEqual([id]);
    repo.markFailed(id, 'output_write_failed', 'disk full', ['/rec/a.srt']);
    repo.markDone(id, ['/rec/a.srt', '/rec/a.txt']); // already settled: unchanged
    expect(repo.seen(v('/rec/a.wav'))).toMatchObject({ state: 'failed', error_code: 'output_write_failed', outputs_json: '["/rec/a.srt"]' });
    expect(repo.queued()).toEqual([]);
    expect(repo.queuedForJob('job_1')).toEqual([]);
  });
});
