/**
 * Migration 009 on a real database file: a database written before it (batches whose items all have jobs) upgrades
 * in place with nothing pending, and pending items (no job, their input kept) can then be stored, counted and given
 * their job.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccountsRepo } from '../../../src-main/store/accounts-repo.js';
import { openDatabase } from '../../../src-main/store/database.js';
import { applyMigrations, appliedVersions } from '../../../src-main/store/migrate.js';
import { MIGRATIONS } from '../../../src-main/store/migrations/index.js';
import { createRepositories } from '../../../src-main/store/repositories.js';
import Database from 'better-sqlite3';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-m009-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('migration 009 (pending batch items)', () => {
  it('upgrades a database with batches in place: existing items keep their jobs, none is pending', () => {
    const file = join(dir, 'voxdesk.db');
    const old = new Database(file);
    applyMigrations(old, MIGRATIONS.filter((m) => m.version < 9));
    old.exec(`
      INSERT INTO accounts (id, name, created_at) VALUES ('acc_1', 'a', '2026-01-01T00:00:00.000Z');
      INSERT INTO batches (id, account_id, product, model_id, params_json, status, file_count, created_at)
        VALUES ('bat_1', 'acc_1', 'speech-to-text', 'm', '{}', 'open', 1, '2026-01-01T00:00:00.000Z');
      INSERT INTO jobs (id, account_id, product, model_id, status, params_json, input_json, batch_id, created_at, updated_at)
        VALUES ('job_1', 'acc_1', 'speech-to-text', 'm', 'queued', '{}', '{}', 'bat_1', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
      INSERT INTO batch_items (batch_id, position, name, job_id) VALUES ('bat_1', 0, 'a.wav', 'job_1');
    `);
    old.close();
    const db = openDatabase(file);
    expect(appliedVersions(db)).toContain(9);
    const repos = createRepositories(db);
    expect(repos.batches.items('bat_1')).toEqual([{ batch_id: 'bat_1', position: 0, name: 'a.wav', job_id: 'job_1', pending_input_json: null, estimated_seconds: null }]);
    expect(repos.batches.get('bat_1')).toMatchObject({ language: null, pending_code: null, pending_message: null });
    expect(repos.batches.withPendingItems(10)).toEqual([]);
    db.close();
  });

  it('stores pending items, counts them per account, gives each its job once', () => {
    const db = openDatabase(join(dir, 'voxdesk.db'));
    const repos = createRepositories(db);
    const account = createAccountsRepo(db).createAccount('a').id;
    repos.batches.insert({
      id: 'bat_2', account_id: account, product: 'speech-to-text', model_id: 'remote:m', params_json: '{}', status: 'open', file_count: 2,
      language: 'en', pending_code: null, pending_message: null, price_json: null, estimated_usd_micro: null, reserved_usd_micro: null, reserved_at: null, created_at: '2026-01-01T00:00:00.000Z', finished_at: null,
    });
    for (const position of [0, 1]) repos.batches.insertItem({ batch_id: 'bat_2', position, name: `${position}.wav`, job_id: null, pending_input_json: `{"fileName":"${position}.wav"}`, estimated_seconds: null });
    expect(repos.batches.withPendingItems(10)).toEqual(['bat_2']);
    expect(repos.batches.countPending(account)).toBe(2);
    expect(repos.batches.countPending('acc_other')).toBe(0);
    expect(repos.batches.countPending(null)).toBe(2);
    repos.batches.setPendingReason('bat_2', 'waiting_for_network', 'offline');
    expect(repos.batches.get('bat_2')).toMatchObject({ pending_code: 'waiting_for_network', pending_message: 'offline' });
    db.prepare(`INSERT INTO jobs (id, account_id, product, model_id, status, params_json, input_json, batch_id, created_at, updated_at)
      VALUES ('job_2', ?, 'speech-to-text', 'remote:m', 'queued', '{}', '{}', 'bat_2', 'x', 'x')`).run(account);
    expect(repos.batches.attachJob('bat_2', 0, 'job_2')).toBe(true);
    expect(repos.batches.attachJob('bat_2', 0, 'job_2')).toBe(false);
    expect(repos.batches.pendingItems('bat_2').map((i) => i.position)).toEqual([1]);
    expect(repos.batches.items('bat_2')[0]).toMatchObject({ job_id: 'job_2', pending_input_json: null });
    expect(repos.batches.countPending(account)).toBe(1);
    db.close();
  });
});
