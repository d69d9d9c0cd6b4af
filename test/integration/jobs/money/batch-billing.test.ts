import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Batch } from '../../../../src-main/common/api-types.js';
import { countItems } from '../../../../src-main/common/job-states.js';
import { ApiError } from '../../../../src-main/common/errors.js';
import type { NewBatch } from '../../../../src-main/jobs/engine/job-service-types.js';
import { httpStatusOf } from '../../../../src-main/service/http/http-status.js';
import { createHarness, terminal, type Harness } from '../harness.js';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

function batchOf(harness: Harness, params: Record<string, unknown>[], modelId = 'test-free'): NewBatch {
  return {
    accountId: harness.accountId,
    product: 'speech-to-text',
    modelId,
    params: {},
    language: null,
    items: params.map((p, i) => ({ name: `item-${i}`, input: { fileName: `f${i}.wav`, text: JSON.stringify(p) } })),
  };
}

function waitBatchComplete(harness: Harness, batchId: string, seen: Batch[]): Promise<Batch> {
  return new Promise((resolve) => {
    harness.service.events.on('batch-changed', (batch) => {
      if (batch.id !== batchId) return;
      seen.push(batch);
      if (batch.status === 'complete') resolve(batch);
    });
  });
}

describe('batches and billing', () => {
  it('counts stay consistent at every event; the batch completes and pays one request fee', async () => {
    h = createHarness({ workers: 2 });
    await h.service.start();
    // Batch items share params; per-item behaviour comes from the model's test switch in params.
    const created = await h.service.createBatch({ ...batchOf(h, [{}, {}, {}]), modelId: 'test-priced', params: { behaviour: 'succeed', seconds: 90 } });
    const seen: Batch[] = [];
    const complete = await waitBatchComplete(h, created.batch.id, seen);
    expect(created.batch).toMatchObject({ status: 'open', file_count: 3, succeeded: 0, failed: 0, remaining: 3 });
    for (const b of seen) {
      const counts = countItems(b.files.map((f) => f.status));
      expect({ succeeded: b.succeeded, failed: b.failed, remaining: b.remaining }).toEqual(counts);
      expect(b.succeeded + b.failed + b.remaining).toBe(b.file_count);
      expect(b.status === 'complete').toBe(b.remaining === 0);
    }
    expect(complete).toMatchObject({ status: 'complete', succeeded: 3, failed: 0, remaining: 0 });
    expect(complete.finished_at).not.toBeNull();
    const ledger = await h.service.ledgerFor(h.accountId);
    // 90 s at $0.006/min = $0.009 per item; one $0.05 fee for the batch.
    expect(ledger.filter((e) => e.kind === 'usage').map((e) => e.amount_usd_micro)).toEqual([9000, 9000, 9000]);
    expect(ledger.filter((e) => e.kind === 'request_fee')).toHaveLength(1);
    expect(ledger.find((e) => e.kind === 'request_fee')).toMatchObject({ batch_id: created.batch.id, job_id: null, amount_usd_micro: 50_000 });
  });

  it('a batch whose items all fail completes without a fee; cancelBatch cancels unfinished items', async () => {
    h = createHarness({ workers: 1 });
    await h.service.start();
    const failing = await h.service.createBatch({ ...batchOf(h, [{}, {}]), modelId: 'test-priced', params: { behaviour: 'fail' } });
    const seen: Batch[] = [];
    const done = await waitBatchComplete(h, failing.batch.id, seen);
    expect(done).toMatchObject({ status: 'complete', succeeded: 0, failed: 2, remaining: 0 });
    expect(done.files[0]).toMatchObject({ status: 'failed', error_code: 'engine_failed' });
    const slow = await h.service.createBatch({ ...batchOf(h, [{}, {}, {}]), params: { behaviour: 'sleep', ms: 30_000 } });
    await new Promise<void>((resolve) => {
      h.service.events.on('job-changed', (job) => job.batch_id === slow.batch.id && job.status === 'running' && resolve());
    });
    const completion = waitBatchComplete(h, slow.batch.id, []);
    const cancelled = (await h.service.cancelBatch(h.accountId, 'speech-to-text', slow.batch.id))!;
    expect(cancelled.files.map((f) => f.status).sort()).toEqual(['cancelled', 'cancelled', 'running']);
    expect(await completion).toMatchObject({ status: 'complete', failed: 3, remaining: 0 });
    expect(await h.service.ledgerFor(h.accountId)).toEqual([]);
    expect(await h.service.cancelBatch('acc_other', 'speech-to-text', slow.batch.id)).toBeUndefined();
  });

  it('refuses a third open batch with too_many_open_batches, and oversize batches', async () => {
    h = createHarness();
    await h.service.createBatch(batchOf(h, [{}]));
    await h.service.createBatch(batchOf(h, [{}]));
    const third = await h.service.createBatch(batchOf(h, [{}])).catch((error: unknown) => error);
    expect(third).toBeInstanceOf(ApiError);
    expect(third).toMatchObject({ code: 'too_many_open_batches' });
    expect(httpStatusOf(third as ApiError)).toBe(429); // what the service answers for it
    await expect(h.service.createBatch(batchOf(h, Array.from({ length: 51 }, () => ({}))))).rejects.toThrow(/at most 50/);
    await expect(h.service.createBatch(batchOf(h, []))).rejects.toThrow(/at least one/);
    expect((await h.service.listBatches(h.accountId, {})).data).toHaveLength(2);
  });

  it('idempotency: same request replays, a different one is 409, an expired key is reusable', async () => {
    let now = Date.parse('2026-03-01T10:00:00.000Z');
    h = createHarness({ clock: () => new Date(now) });
    const idem = { key: 'k-1', requestHash: 'hash-a' };
    const first = await h.service.createJob(h.job({ behaviour: 'succeed' }), idem);
    const again = await h.service.createJob(h.job({ behaviour: 'succeed' }), idem);
    expect(again.replayed).toBe(true);
    expect(again.job.id).toBe(first.job.id);
    await expect(h.service.createJob(h.job({ behaviour: 'sleep' }), { key: 'k-1', requestHash: 'hash-b' })).rejects.toThrow(
      expect.objectContaining({ code: 'idempotency_key_reused' }),
    );
    await expect(h.service.createBatch(batchOf(h, [{}]), idem)).rejects.toThrow(expect.objectContaining({ code: 'idempotency_key_reused' }));
    const b1 = await h.service.createBatch(batchOf(h, [{}]), { key: 'k-2', requestHash: 'hash-c' });
    const b2 = await h.service.createBatch(batchOf(h, [{}]), { key: 'k-2', requestHash: 'hash-c' });
    expect(b2).toMatchObject({ replayed: true, batch: { id: b1.batch.id } });
    now += 24 * 3600 * 1000 + 1;
    const fresh = await h.service.createJob(h.job({ behaviour: 'sleep' }), { key: 'k-1', requestHash: 'hash-b' });
    expect(fresh.replayed).toBe(false);
    expect(fresh.job.id).not.toBe(first.job.id);
    expect((await h.service.listJobs(h.accountId, {})).data).toHaveLength(3);
  });

  it('charges request fee, usage and priced options for a single job', async () => {
    h = createHarness();
    await h.service.start();
    const { job } = await h.service.createJob(
      h.job({ behaviour: 'succeed', seconds: 120, speaker_diarization: true }, { modelId: 'test-priced' }),
    );
    await terminal(h.service, h.accountId, job.id);
    const ledger = (await h.service.ledgerFor(h.accountId)).map((e) => [e.kind, e.option_name, e.amount_usd_micro, e.seconds]);
    expect(ledger).toEqual([
      ['request_fee', '', 50_000, 120],
      ['usage', '', 12_000, 120],
      ['option', 'speaker_diarization', 15_000, 120],
    ]);
    expect(h.repos.ledger.totalMicro(h.accountId)).toBe(77_000);
  });

  it('artifacts expire: findArtifact says expired, the file is gone, the job remains', async () => {
    let offset = 0;
    h = createHarness({ clock: () => new Date(Date.now() + offset), artifactTtlSeconds: 60 });
    await h.service.start();
    const { job } = await h.service.createJob(h.job({ behaviour: 'succeed', artifact: true }));
    const done = await terminal(h.service, h.accountId, job.id);
    const token = done.result!.artifacts![0]!.url.split('/')[5]!;
    const found = (await h.service.findArtifact(token))!;
    expect(existsSync(found.path)).toBe(true);
    offset = 61_000;
    expect((await h.service.findArtifact(token))?.expired).toBe(true);
    await h.service.runMaintenance();
    expect(existsSync(found.path)).toBe(false);
    expect(await h.service.findArtifact(token)).toMatchObject({ expired: true });
    expect((await h.service.getJob(h.accountId, 'speech-to-text', job.id))?.status).toBe('succeeded');
    expect(h.repos.artifacts.ofJob(job.id)[0]?.deleted_at).not.toBeNull();
  });
});
