/** Migration 011 on a real database file: a revision is stored only as the next number, across connections too. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src-main/store/database.js';
import { createRepositories, type Repositories } from '../../../src-main/store/repositories.js';
import { writeTx } from '../../../src-main/store/transaction.js';
import { insertJob } from '../../helpers/transcript-jobs.js';

let dir: string;
let dbs: Db[];
let a: Repositories;
let b: Repositories;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-revisions-'));
  dbs = [openDatabase(join(dir, 'voxdesk.db')), openDatabase(join(dir, 'voxdesk.db'))];
  [a, b] = dbs.map((db) => createRepositories(db)) as [Repositories, Repositories];
});
afterEach(() => {
  for (const db of dbs) db.close();
  rmSync(dir, { recursive: true, force: true });
});

const row = (jobId: string, revision: number, text: string) => ({ job_id: jobId, revision, speakers_json: '{}', segments_json: JSON.stringify([{ text }]), created_at: 'now' });

it('inserts 0, then only the next number; a second connection editing the same base loses', () => {
  const jobId = insertJob(a, { accountId: a.accounts.createAccount('x').id, result: { text: 'x' } });
  expect(a.revisions.insertNext(row(jobId, 1, 'skip'))).toBe(false);
  expect(a.revisions.insertNext(row(jobId, 0, 'original'))).toBe(true);
  expect(a.revisions.insertNext(row(jobId, 0, 'again'))).toBe(false);
  // Two editors read revision 0, both try to store revision 1, each in its own IMMEDIATE transaction.
  const base = b.revisions.latestNumber(jobId)!;
  expect(writeTx(a.db, () => a.revisions.insertNext(row(jobId, base + 1, 'first')))).toBe(true);
  expect(writeTx(b.db, () => b.revisions.insertNext(row(jobId, base + 1, 'second')))).toBe(false);
  expect(JSON.parse(b.revisions.latest(jobId)!.segments_json)).toEqual([{ text: 'first' }]);
  expect(b.revisions.get(jobId, 0)!.segments_json).toContain('original');
  expect(a.revisions.withoutRevision(10)).toEqual([]);
});
