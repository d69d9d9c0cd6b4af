/** Migration 007 and the segments repository on a real database file: checkpoints append in order, never twice. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src-main/store/database.js';
import { newId } from '../../../src-main/store/ids.js';
import { appliedVersions } from '../../../src-main/store/migrate.js';
import { createRepositories, type Repositories } from '../../../src-main/store/repositories.js';
import type { SegmentRow } from '../../../src-main/store/segments-repo.js';

let dir: string;
let db: Db;
let repos: Repositories;
let accountId: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-segments-'));
  db = openDatabase(join(dir, 'voxdesk.db'));
  repos = createRepositories(db);
  accountId = repos.accounts.createAccount('a').id;
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function job(): string {
  const id = newId('job');
  const at = '2026-06-01T08:00:00.000Z';
  repos.jobs.insert({
    id, account_id: accountId, product: 'speech-to-text', model_id: 'm', name: null, language: null, status: 'queued',
    error_code: null, error_message: null, params_json: '{}', input_json: '{}', duration_seconds: null, result_json: null,
    progress: null, batch_id: null, attempts: 0, cancel_requested: 0, pause_requested: 0, claimed_by: null, lease_expires_at: null,
    estimated_usd_micro: null, estimated_seconds: null, price_json: null, reserved_usd_micro: null, deadline_at: null, created_at: at, started_at: null, finished_at: null, updated_at: at,
  });
  return id;
}

function segment(jobId: string, idx: number, createdAt = `2026-06-01T08:00:0${idx}.000Z`): SegmentRow {
  return {
    job_id: jobId, idx, start_seconds: idx * 10, end_seconds: idx * 10 + 8, resume_seconds: idx * 10 + 8.5, text: `segment ${idx}`,
    words_json: null, language: null, created_at: createdAt,
  };
}

describe('migration 007 (transcript segments)', () => {
  it('adds job_segments and jobs.pause_requested (default 0), once', () => {
    expect(appliedVersions(db)).toContain(7);
    const id = job();
    expect(repos.jobs.get(id)?.pause_requested).toBe(0);
    db.close();
    db = openDatabase(join(dir, 'voxdesk.db'));
    expect(appliedVersions(db).filter((v) => v === 7)).toHaveLength(1);
  });
});

describe('segments repository', () => {
  it('appends only the next index: a gap or a repeat is refused and changes nothing', () => {
    const id = job();
    expect(repos.segments.append(segment(id, 1))).toBe(false); // the first must be 0
    expect(repos.segments.append(segment(id, 0))).toBe(true);
    expect(repos.segments.append(segment(id, 0))).toBe(false);
    expect(repos.segments.append(segment(id, 1))).toBe(true);
    expect(repos.segments.append(segment(id, 3))).toBe(false);
    expect(repos.segments.count(id)).toBe(2);
    expect(repos.segments.last(id)?.idx).toBe(1);
    expect(repos.segments.all(id).map((r) => r.idx)).toEqual([0, 1]);
    expect(repos.segments.count(job())).toBe(0);
  });

  it('pages after an index, copies a checkpoint to another job, and tells where a run resumed', () => {
    const id = job();
    for (let i = 0; i < 5; i++) repos.segments.append(segment(id, i));
    expect(repos.segments.page(id, -1, 2).map((r) => r.idx)).toEqual([0, 1]);
    expect(repos.segments.page(id, 1, 10).map((r) => r.idx)).toEqual([2, 3, 4]);
    expect(repos.segments.hasAfter(id, 3)).toBe(true);
    expect(repos.segments.hasAfter(id, 4)).toBe(false);
    // A run started at 08:00:03.500 resumed after the segments committed before it (0, 1, 2, 3); one started in the
    // very millisecond segment 3 was committed resumed after it too (the claim can follow a commit at once).
    expect(repos.segments.resumedFrom(id, '2026-06-01T08:00:02.500Z')).toBe(28.5);
    expect(repos.segments.resumedFrom(id, '2026-06-01T08:00:03.000Z')).toBe(38.5);
    expect(repos.segments.resumedFrom(id, '2026-06-01T07:00:00.000Z')).toBeNull();
    const retry = job();
    expect(repos.segments.copy(id, retry, '2026-06-01T09:00:00.000Z')).toBe(5);
    const content = (jobId: string) => repos.segments.all(jobId).map((r) => [r.idx, r.start_seconds, r.end_seconds, r.resume_seconds, r.text]);
    expect(content(retry)).toEqual(content(id));
    expect(repos.segments.all(retry).every((r) => r.job_id === retry && r.created_at === '2026-06-01T09:00:00.000Z')).toBe(true);
    // The retry's run claimed in the millisecond its checkpoint was copied resumed from it.
    expect(repos.segments.resumedFrom(retry, '2026-06-01T09:00:00.000Z')).toBe(48.5);
    expect(repos.segments.append(segment(retry, 5))).toBe(true); // it continues after the copied ones
  });

  it('a segment must belong to an existing job', () => {
    expect(() => repos.segments.append(segment('job_missing', 0))).toThrow(/FOREIGN KEY/);
  });
});
