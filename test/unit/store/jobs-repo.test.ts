/**
 * The jobs repository on a real database file: rows read back with every column of the table (they are read as
 * arrays and mapped by position), UPDATEs that write only the columns given and leave the others as stored, the
 * status check of every write, and the stamp that tells the scheduler whether unmarked queued jobs may have appeared.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src-main/store/database.js';
import { createJobsRepo, type JobRow, type JobsRepo } from '../../../src-main/store/jobs-repo.js';
import { createAccountsRepo } from '../../../src-main/store/accounts-repo.js';
import { writeTx } from '../../../src-main/store/transaction.js';

let dir: string;
let db: Db;
let jobs: JobsRepo;
let accountId: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-jobs-repo-'));
  db = openDatabase(join(dir, 'v.db'));
  jobs = createJobsRepo(db);
  accountId = createAccountsRepo(db).createAccount('a').id;
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function row(id: string, over: Partial<JobRow> = {}): JobRow {
  const at = '2026-05-01T12:00:00.000Z';
  return {
    id, account_id: accountId, product: 'speech-to-text', model_id: 'm', name: `name ${id}`, language: 'en', status: 'queued',
    error_code: null, error_message: null, params_json: '{"a":1}', input_json: '{"text":"hi"}', duration_seconds: '1.500',
    result_json: null, progress: 0.25, batch_id: null, attempts: 1, cancel_requested: 0, pause_requested: 0,
    claimed_by: null, lease_expires_at: null, estimated_usd_micro: 42, estimated_seconds: 1.5, price_json: '{"hosted":false}',
    reserved_usd_micro: null, deadline_at: '2026-05-02T12:00:00.000Z', created_at: at, started_at: null,
    finished_at: null, updated_at: at, ...over,
  };
}

describe('jobs repo', () => {
  it('reads a row with every column of the jobs table and its stored values', () => {
    jobs.insert(row('job_1'));
    const read = jobs.get('job_1')!;
    const columns = (db.prepare('PRAGMA table_info(jobs)').all() as { name: string }[]).map((c) => c.name);
    expect(Object.keys(read).sort()).toEqual([...columns].sort());
    expect(read).toEqual({ ...row('job_1'), input_purged_at: null });
    expect(jobs.queued(10)).toEqual([read]);
    expect(jobs.queuedUnmarked(10)).toEqual([read]);
    expect(jobs.page({ accountId, product: null, status: null, after: null, limit: 10 })).toEqual([read]);
    expect(jobs.get('job_missing')).toBeUndefined();
  });

  it('writes only the columns given, when the status is still the expected one', () => {
    jobs.insert(row('job_1'));
    // Another writer's change to a column this write does not name is kept.
    db.prepare("UPDATE jobs SET cancel_requested = 1, progress = 0.5 WHERE id = 'job_1'").run();
    const at = '2026-05-01T12:00:01.000Z';
    expect(jobs.write('job_1', 'queued', { error_code: 'waiting_for_capacity', error_message: 'busy', updated_at: at })).toBe(true);
    expect(jobs.get('job_1')).toMatchObject({ status: 'queued', error_code: 'waiting_for_capacity', error_message: 'busy', cancel_requested: 1, progress: 0.5, updated_at: at });
    expect(jobs.write('job_1', 'running', { status: 'failed', updated_at: at })).toBe(false);
    expect(jobs.get('job_1')!.status).toBe('queued');
    expect(jobs.write('job_1', 'queued', { status: 'running', error_code: null, error_message: null, started_at: at, updated_at: at })).toBe(true);
    expect(jobs.get('job_1')).toMatchObject({ status: 'running', error_code: null, started_at: at, cancel_requested: 1 });
    expect(jobs.write('job_1', 'running', {})).toBe(true);
    expect(jobs.write('job_1', 'queued', {})).toBe(false);
  });

  it('refuses to write a column that is not mutable', () => {
    jobs.insert(row('job_1'));
    expect(() => jobs.write('job_1', 'queued', { account_id: 'x' } as never)).toThrow(/not a mutable column/);
  });

  it('moves the unmarked stamp when a job may become queued without a waiting code, on any repo of the connection', () => {
    const other = createJobsRepo(db);
    const start = jobs.unmarkedStamp();
    writeTx(db, () => jobs.insert(row('job_1')));
    expect(jobs.unmarkedStamp()).toBe(start + 1);
    expect(other.unmarkedStamp()).toBe(start + 1);
    jobs.write('job_1', 'queued', { error_code: 'waiting_for_capacity', error_message: 'busy', updated_at: 'x' });
    jobs.write('job_1', 'queued', { status: 'running', error_code: null, updated_at: 'x' });
    jobs.insert(row('job_2', { status: 'running' }));
    expect(jobs.unmarkedStamp()).toBe(start + 1); // nothing became unmarked
    other.write('job_1', 'running', { status: 'queued', updated_at: 'x' }); // requeued
    expect(jobs.unmarkedStamp()).toBe(start + 2);
    jobs.insert(row('job_3', { error_code: 'paused' }));
    jobs.write('job_3', 'queued', { error_code: null, updated_at: 'x' }); // resumed
    expect(jobs.unmarkedStamp()).toBe(start + 3);
  });
});

describe('writeTx', () => {
  it('commits, rolls back on a throw, and makes a nested one a savepoint rolled back alone', () => {
    writeTx(db, () => jobs.insert(row('job_1')));
    expect(() =>
      writeTx(db, () => {
        jobs.insert(row('job_2'));
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(jobs.get('job_2')).toBeUndefined();
    writeTx(db, () => {
      jobs.insert(row('job_3'));
      expect(() =>
        writeTx(db, () => {
          jobs.insert(row('job_4'));
          throw new Error('inner');
        }),
      ).toThrow('inner');
      expect(db.inTransaction).toBe(true);
    });
    expect(db.inTransaction).toBe(false);
    expect(['job_1', 'job_2', 'job_3', 'job_4'].map((id) => jobs.get(id) !== undefined)).toEqual([true, false, true, false]);
    expect(() => writeTx(db, () => Promise.resolve() as never)).toThrow(/promise/);
    expect(db.inTransaction).toBe(false);
  });
});
