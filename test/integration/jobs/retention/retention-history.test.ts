import Database from 'better-sqlite3';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Batch } from '../../../../src-main/common/api-types.js';
import { saveRetention } from '../../../../src-main/jobs/retention/retention-policy.js';
import type { NewBatch } from '../../../../src-main/jobs/engine/job-service-types.js';
import { applyMigrations } from '../../../../src-main/store/migrate.js';
import { MIGRATIONS } from '../../../../src-main/store/migrations/index.js';
import { createHarness, terminal, whenJob, type Harness } from '../harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const DAY = 86_400_000;

function batchOf(harness: Harness, count: number, params: Record<string, unknown>, modelId = 'test-priced'): NewBatch {
  return {
    accountId: harness.accountId,
    product: 'speech-to-text',
    modelId,
    params,
    language: null,
    items: Array.from({ length: count }, (_, i) => ({ name: `item-${i}`, input: { fileName: `f${i}.wav` } })),
  };
}

function whenBatchComplete(harness: Harness, batchId: string): Promise<Batch> {
  return new Promise((resolve) => {
    const on = (batch: Batch): void => {
      if (batch.id !== batchId || batch.status !== 'complete') return;
      harness.service.events.off('batch-changed', on);
      resolve(batch);
    };
    harness.service.events.on('batch-changed', on);
  });
}

function count(harness: Harness, sql: string, ...args: string[]): number {
  return harness.db.prepare<string[], { n: number }>(`SELECT COUNT(*) AS n FROM ${sql}`).get(...args)!.n;
}

describe('job-history retention', () => {
  it('keeps everything forever by default (job_history_days null)', async () => {
    let offset = 0;
    h = createHarness({ clock: () => new Date(Date.now() + offset), queueWindowSeconds: 100 * 365 * 86_400 });
    await h.service.start();
    const job = (await h.service.createJob(h.job({ behaviour: 'succeed' }))).job;
    await terminal(h.service, h.accountId, job.id);
    offset = 3650 * DAY;
    await h.service.runMaintenance();
    expect((await h.service.getJob(h.accountId, 'speech-to-text', job.id))?.status).toBe('succeeded');
  });

  it('deletes finished jobs and complete batches after the configured days; keeps ledger rows and open batches', async () => {
    let offset = 0;
    h = createHarness({
      clock: () => new Date(Date.now() + offset),
      workers: 1,
      artifactTtlSeconds: 30 * 86_400, // links outlive the history here, so the history sweep must delete the files
      queueWindowSeconds: 365 * 86_400,
    });
    // Recordings outlive the history here, so the history sweep must delete the upload too.
    await saveRetention(h.service.store.repos.settings, { recordings_hours: 100, job_history_days: 2 });
    const folder = join(h.dir, 'uploads', 'up_history');
    mkdirSync(folder, { recursive: true });
    const recording = join(folder, 'talk.wav');
    writeFileSync(recording, 'RIFF');
    await h.service.start();

    // A standalone priced job with an artifact and an uploaded recording.
    const solo = (await h.service.createJob(
      h.job({ behaviour: 'succeed', artifact: true, seconds: 60 }, { modelId: 'test-priced', input: { filePath: recording, fileName: 'talk.wav' } }),
    )).job;
    await terminal(h.service, h.accountId, solo.id);
    const artifactPath = h.repos.db.prepare<[string], { path: string }>('SELECT path FROM artifacts WHERE job_id = ?').get(solo.id)!.path;
    expect(existsSync(artifactPath)).toBe(true);

    // A complete batch: deleted as a whole, its request fee stays in the ledger.
    const done = (await h.service.createBatch(batchOf(h, 2, { behaviour: 'succeed', seconds: 30 }))).batch;
    await whenBatchComplete(h, done.id);
    const doneJobs = h.db.prepare<[string], { id: string }>('SELECT id FROM jobs WHERE batch_id = ?').all(done.id).map((r) => r.id);
    expect(doneJobs).toHaveLength(2);

    // An open batch: one item hangs in the only worker, its sibling is cancelled while queued (finished, terminal).
    const open = (await h.service.createBatch(batchOf(h, 2, { behaviour: 'hang' }, 'test-free'))).batch;
    const [runningId, siblingId] = h.db
      .prepare<[string], { job_id: string }>('SELECT job_id FROM batch_items WHERE batch_id = ? ORDER BY position')
      .all(open.id)
      .map((r) => r.job_id);
    await whenJob(h.service, runningId!, (j) => j.status === 'running');
    await h.service.cancelJob(h.accountId, 'speech-to-text', siblingId!);
    await terminal(h.service, h.accountId, siblingId!);

    const ledgerBefore = await h.service.ledgerFor(h.accountId);
    expect(ledgerBefore.filter((e) => e.job_id === solo.id).map((e) => e.kind).sort()).toEqual(['request_fee', 'usage']);
    expect(ledgerBefore.filter((e) => e.batch_id === done.id && e.job_id === null).map((e) => e.kind)).toEqual(['request_fee']);

    offset = 1 * DAY + 60_000; // within the window: nothing goes
    await h.service.runMaintenance();
    expect(await h.service.getJob(h.accountId, 'speech-to-text', solo.id)).toBeDefined();
    expect(existsSync(artifactPath)).toBe(true);
    expect(existsSync(recording)).toBe(true);

    offset = 3 * DAY;
    await h.service.runMaintenance();
    expect(await h.service.getJob(h.accountId, 'speech-to-text', solo.id)).toBeUndefined();
    expect(existsSync(artifactPath)).toBe(false);
    expect(existsSync(join(h.dir, 'artifacts', solo.id))).toBe(false);
    expect(existsSync(recording)).toBe(false);
    expect(count(h, 'artifacts WHERE job_id = ?', solo.id)).toBe(0);

    expect(await h.service.getBatch(h.accountId, 'speech-to-text', done.id)).toBeUndefined();
    for (const id of doneJobs) expect(h.repos.jobs.get(id)).toBeUndefined();
    expect(count(h, 'batch_items WHERE batch_id = ?', done.id)).toBe(0);

    // The ledger is the billing record: every row kept, still naming the job or batch charged.
    expect(await h.service.ledgerFor(h.accountId)).toEqual(ledgerBefore);

    // The open batch and both its items are untouched, the cancelled sibling included.
    expect((await h.service.getBatch(h.accountId, 'speech-to-text', open.id))?.status).toBe('open');
    expect((await h.service.getJob(h.accountId, 'speech-to-text', siblingId!))?.status).toBe('cancelled');
    expect((await h.service.getJob(h.accountId, 'speech-to-text', runningId!))?.status).toBe('running');

    // The engine keeps working on a database whose history was swept.
    const after = (await h.service.createJob(h.job({ behaviour: 'succeed' }))).job;
    await h.service.cancelJob(h.accountId, 'speech-to-text', runningId!);
    await terminal(h.service, h.accountId, after.id);
  });

  it('upgrading a database keeps every ledger row and lets it outlive its job (migration 006)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'voxdesk-ledger-'));
    const db = new Database(join(dir, 'old.db'));
    try {
      db.pragma('foreign_keys = ON');
      applyMigrations(db, MIGRATIONS.filter((m) => m.version < 6));
      const at = '2026-01-01T00:00:00.000Z';
      db.prepare("INSERT INTO accounts (id, name, created_at) VALUES ('acc', 'local', ?)").run(at);
      db.prepare(`INSERT INTO jobs (id, account_id, product, model_id, status, params_json, input_json, created_at, updated_at, finished_at)
        VALUES ('job_old', 'acc', 'speech-to-text', 'm', 'succeeded', '{}', '{}', ?, ?, ?)`).run(at, at, at);
      db.prepare(`INSERT INTO ledger (account_id, job_id, model_id, kind, amount_usd_micro, created_at)
        VALUES ('acc', 'job_old', 'm', 'usage', 9000, ?), ('acc', NULL, 'm', 'request_fee', 50000, ?)`).run(at, at);
      const before = db.prepare('SELECT * FROM ledger ORDER BY id').all();

      // Up to 006: later migrations add columns of their own (010: product, provider; test/unit/store/migration-010).
      applyMigrations(db, MIGRATIONS.filter((m) => m.version <= 6));
      expect(db.prepare('SELECT * FROM ledger ORDER BY id').all()).toEqual(before);
      db.prepare("DELETE FROM jobs WHERE id = 'job_old'").run(); // no foreign key stops it any more
      expect(db.prepare('SELECT job_id FROM ledger ORDER BY id').all()).toEqual([{ job_id: 'job_old' }, { job_id: null }]);
      // The once-per-job guarantee survives the rebuild.
      const again = db.prepare(`INSERT INTO ledger (account_id, job_id, model_id, kind, amount_usd_micro, created_at)
        VALUES ('acc', 'job_old', 'm', 'usage', 9000, ?) ON CONFLICT DO NOTHING`).run(at);
      expect(again.changes).toBe(0);
      expect(db.pragma('foreign_key_check')).toEqual([]);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
