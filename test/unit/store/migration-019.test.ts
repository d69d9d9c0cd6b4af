/**
 * Migration 019 on a real database file: the ledger of an older database keeps every row with its id and values,
 * loses `ledger_account` and AUTOINCREMENT, indexes only hosted charges by time (no sqlite_sequence row is written per charge any more), new charges
 * continue after the last id, the once-per-job and once-per-batch rules still hold, and the account's queries use
 * `ledger_account_time`.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/store/database.js';
import { applyMigrations, appliedVersions } from '../../../src-main/store/migrate.js';
import { MIGRATIONS } from '../../../src-main/store/migrations/index.js';
import { createLedgerRepo, type NewCharge } from '../../../src-main/store/ledger-repo.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-m019-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const charge = (over: Partial<NewCharge>): NewCharge => ({
  account_id: 'acc', job_id: 'job_1', batch_id: null, model_id: 'm', product: 'speech-to-text', provider: 'local',
  kind: 'usage', option_name: '', seconds: 60, amount_usd_micro: 1000, created_at: '2026-01-01T00:00:01.000Z', ...over,
});

describe('migration 019 (ledger-lean)', () => {
  it('keeps every ledger row and id, and drops only ledger_account and AUTOINCREMENT', () => {
    const path = join(dir, 'voxdesk.db');
    const old = new Database(path);
    applyMigrations(old, MIGRATIONS.filter((m) => m.version < 19));
    old.prepare("INSERT INTO accounts (id, name, created_at) VALUES ('acc', 'a', '2026-01-01T00:00:00.000Z')").run();
    const oldLedger = createLedgerRepo(old);
    expect(oldLedger.charge(charge({ kind: 'request_fee', amount_usd_micro: 50_000, seconds: 0 }))).toBe(true);
    expect(oldLedger.charge(charge({}))).toBe(true);
    expect(oldLedger.charge(charge({ job_id: null, batch_id: 'bat_1', kind: 'request_fee', provider: 'remote', product: 'text-to-speech', created_at: '2026-01-02T00:00:00.000Z' }))).toBe(true);
    const before = oldLedger.forAccount('acc');
    expect(before.map((r) => r.id)).toEqual([1, 2, 3]);
    old.close();

    const db = openDatabase(path);
    try {
      expect(appliedVersions(db)).toContain(19);
      const ledger = createLedgerRepo(db);
      expect(ledger.forAccount('acc')).toEqual(before);
      const indexes = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'ledger' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
      expect(indexes).toEqual(['ledger_account_time', 'ledger_once_per_batch', 'ledger_once_per_job', 'ledger_remote_time']);
      const sql = (db.prepare("SELECT sql FROM sqlite_master WHERE name = 'ledger'").get() as { sql: string }).sql;
      expect(sql).not.toMatch(/AUTOINCREMENT/i);
      expect(db.prepare("SELECT COUNT(*) AS n FROM sqlite_sequence WHERE name = 'ledger'").get()).toEqual({ n: 0 });

      // The rules and the numbering go on as before.
      expect(ledger.charge(charge({}))).toBe(false);
      expect(ledger.charge(charge({ job_id: null, batch_id: 'bat_1', kind: 'request_fee' }))).toBe(false);
      expect(ledger.charge(charge({ job_id: 'job_2' }))).toBe(true);
      expect(ledger.forAccount('acc').map((r) => r.id)).toEqual([1, 2, 3, 4]);
      expect(ledger.totalMicro('acc')).toBe(50_000 + 1000 + 1000 + 1000); // fee, usage, the batch's fee, job_2's usage
      expect(ledger.usage({ accountId: 'acc', fromIso: '2026-01-01T00:00:00.000Z', toIso: '2026-02-01T00:00:00.000Z', groupBy: 'product' })).toEqual([
        { key: 'speech-to-text', provider: 'local', kind: 'request_fee', amount_usd_micro: 50_000, seconds: 0, rows: 1 },
        { key: 'speech-to-text', provider: 'local', kind: 'usage', amount_usd_micro: 2000, seconds: 120, rows: 2 },
        { key: 'text-to-speech', provider: 'remote', kind: 'request_fee', amount_usd_micro: 1000, seconds: 60, rows: 1 },
      ]);
      const plan = (db.prepare("EXPLAIN QUERY PLAN SELECT * FROM ledger WHERE account_id = 'acc' ORDER BY id").all() as { detail: string }[])
        .map((p) => p.detail)
        .join(' ');
      expect(plan).toMatch(/ledger_account_time/);
      // The month's hosted spending reads only hosted charges' entries.
      const spendingPlan = (db.prepare("EXPLAIN QUERY PLAN SELECT SUM(amount_usd_micro) AS total FROM ledger WHERE provider = 'remote' AND created_at >= ? AND created_at < ?").all('a', 'b') as { detail: string }[])
        .map((p) => p.detail)
        .join(' ');
      expect(spendingPlan).toMatch(/ledger_remote_time/);
      expect(db.prepare("SELECT COUNT(*) AS n FROM ledger INDEXED BY ledger_remote_time WHERE provider = 'remote' AND created_at > ''").get()).toEqual({ n: 1 });
    } finally {
      db.close();
    }
  });
});
