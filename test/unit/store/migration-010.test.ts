/**
 * Migration 010 on a real database file: a database written before it upgrades in place — its ledger rows learn
 * their product (from their job or batch, text-to-speech for a live session's) and whether a hosted service billed
 * them (a `remote:` model), jobs and batches of earlier builds have no price snapshot (they are charged at the
 * catalogue's price, as before) — and the new columns then hold prices, estimates and reservations.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/store/database.js';
import { applyMigrations, appliedVersions } from '../../../src-main/store/migrate.js';
import { MIGRATIONS } from '../../../src-main/store/migrations/index.js';
import { createRepositories } from '../../../src-main/store/repositories.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-m010-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const AT = '2026-05-03T10:00:00.000Z';

describe('migration 010 (prices and budget)', () => {
  it('upgrades a ledger in place: product and provider for every old row, nothing charged twice', () => {
    const file = join(dir, 'voxdesk.db');
    const old = new Database(file);
    applyMigrations(old, MIGRATIONS.filter((m) => m.version < 10));
    old.exec(`
      INSERT INTO accounts (id, name, created_at) VALUES ('acc_1', 'local', '${AT}');
      INSERT INTO batches (id, account_id, product, model_id, params_json, status, file_count, created_at)
        VALUES ('bat_1', 'acc_1', 'text-to-speech', 'remote:espeak-ng', '{}', 'complete', 1, '${AT}');
      INSERT INTO jobs (id, account_id, product, model_id, status, params_json, input_json, batch_id, created_at, updated_at)
        VALUES ('job_1', 'acc_1', 'speech-to-text', 'test-asr', 'succeeded', '{}', '{}', NULL, '${AT}', '${AT}');
      INSERT INTO ledger (account_id, job_id, batch_id, model_id, kind, option_name, seconds, amount_usd_micro, created_at) VALUES
        ('acc_1', 'job_1', NULL, 'test-asr', 'usage', '', 60, 6000, '${AT}'),
        ('acc_1', NULL, 'bat_1', 'remote:espeak-ng', 'request_fee', '', 0, 50000, '${AT}'),
        ('acc_1', 'job_gone', NULL, 'remote:x', 'usage', '', 1, 100, '${AT}'),
        ('acc_1', NULL, NULL, 'espeak-ng', 'request_fee', '', 0, 50000, '${AT}');
    `);
    old.close();

    const db = openDatabase(file);
    expect(appliedVersions(db)).toContain(10);
    const repos = createRepositories(db);
    expect(repos.ledger.forAccount('acc_1').map((r) => [r.model_id, r.product, r.provider])).toEqual([
      ['test-asr', 'speech-to-text', 'local'],
      ['remote:espeak-ng', 'text-to-speech', 'remote'],
      ['remote:x', 'text-to-speech', 'remote'],
      ['espeak-ng', 'text-to-speech', 'local'],
    ]);
    expect(repos.jobs.get('job_1')).toMatchObject({ price_json: null, estimated_seconds: null, reserved_usd_micro: null });
    expect(repos.batches.get('bat_1')).toMatchObject({ price_json: null, estimated_usd_micro: null, reserved_usd_micro: null, reserved_at: null });
    // The once-per-job index still holds.
    expect(repos.ledger.charge({ account_id: 'acc_1', job_id: 'job_1', batch_id: null, model_id: 'test-asr', product: 'speech-to-text', provider: 'local', kind: 'usage', option_name: '', seconds: 60, amount_usd_micro: 6000, created_at: AT })).toBe(false);
    expect(repos.spending.hostedChargedMicro('2026-05-01T00:00:00.000Z', '2026-06-01T00:00:00.000Z')).toBe(50_100);
    expect(repos.spending.hostedChargedMicro('2026-06-01T00:00:00.000Z', '2026-07-01T00:00:00.000Z')).toBe(0);
    expect(repos.ledger.usage({ accountId: 'acc_1', fromIso: '2026-05-01T00:00:00.000Z', toIso: '2026-06-01T00:00:00.000Z', groupBy: 'product' })).toEqual([
      { key: 'speech-to-text', provider: 'local', kind: 'usage', amount_usd_micro: 6000, seconds: 60, rows: 1 },
      { key: 'text-to-speech', provider: 'local', kind: 'request_fee', amount_usd_micro: 50_000, seconds: 0, rows: 1 },
      { key: 'text-to-speech', provider: 'remote', kind: 'request_fee', amount_usd_micro: 50_000, seconds: 0, rows: 1 },
      { key: 'text-to-speech', provider: 'remote', kind: 'usage', amount_usd_micro: 100, seconds: 1, rows: 1 },
    ]);
    db.close();
  });

  it('counts reservations of hosted work under way: a job until it ends, a batch less what it was charged', () => {
    const db = openDatabase(join(dir, 'voxdesk.db'));
    const repos = createRepositories(db);
    db.exec(`
      INSERT INTO accounts (id, name, created_at) VALUES ('acc_1', 'local', '${AT}');
      INSERT INTO jobs (id, account_id, product, model_id, status, params_json, input_json, reserved_usd_micro, created_at, updated_at) VALUES
        ('job_run', 'acc_1', 'text-to-speech', 'remote:t', 'running', '{}', '{}', 50000, '${AT}', '${AT}'),
        ('job_done', 'acc_1', 'text-to-speech', 'remote:t', 'succeeded', '{}', '{}', 50000, '${AT}', '${AT}'),
        ('job_wait', 'acc_1', 'text-to-speech', 'remote:t', 'queued', '{}', '{}', NULL, '2026-05-03T09:00:00.000Z', '${AT}');
      UPDATE jobs SET error_code = 'waiting_for_budget' WHERE id = 'job_wait';
      INSERT INTO batches (id, account_id, product, model_id, params_json, status, file_count, reserved_usd_micro, created_at) VALUES
        ('bat_open', 'acc_1', 'text-to-speech', 'remote:t', '{}', 'open', 2, 80000, '${AT}'),
        ('bat_wait', 'acc_1', 'text-to-speech', 'remote:t', '{}', 'open', 1, NULL, '2026-05-03T08:00:00.000Z');
      UPDATE batches SET pending_code = 'waiting_for_budget' WHERE id = 'bat_wait';
      INSERT INTO batch_items (batch_id, position, name, job_id, pending_input_json) VALUES ('bat_wait', 0, 'x', NULL, '{}');
      INSERT INTO ledger (account_id, job_id, batch_id, model_id, provider, product, kind, option_name, seconds, amount_usd_micro, created_at)
        VALUES ('acc_1', 'job_x', 'bat_open', 'remote:t', 'remote', 'text-to-speech', 'usage', '', 30, 30000, '${AT}');
    `);
    expect(repos.spending.reservedMicro('2000-01-01T00:00:00.000Z')).toBe(50_000 + 50_000);
    expect(repos.spending.oldestWaiting()).toEqual({ created_at: '2026-05-03T08:00:00.000Z', id: 'bat_wait' });
    expect(repos.spending.countWaiting()).toBe(2);
    db.close();
  });
});
