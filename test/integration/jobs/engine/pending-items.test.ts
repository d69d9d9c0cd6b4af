/**
 * Pending batch items (jobs/batch-hold.ts) on a real SQLite file: a batch on a model whose runner places batches
 * as a whole keeps its items pending — no job, no job_id, counted in remaining, with the reason they wait — until
 * the runner accepts the batch (then they are queued jobs and run), refuses it (they fail with its code), the batch
 * is cancelled, or it waits past the queue window (expired). Pending items survive a restart. The runner is the
 * job engine's real boundary (the hosted service behind it is tested in test/integration/remote/batches.test.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Batch } from '../../../../src-main/common/api-types.js';
import type { HoldOutcome, JobRunner } from '../../../../src-main/jobs/engine/job-runner.js';
import type { NewBatch } from '../../../../src-main/jobs/engine/job-service-types.js';
import { createHarness, PRICED, type Harness } from '../harness.js';
import { scaled } from '../../../helpers/time-scale.js';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

/** A runner whose placement answer the test sets; it runs every job it is given in no time. */
function scriptedRunner(): { runner: JobRunner; answer: HoldOutcome; placed: string[] } {
  const state = {
    answer: { kind: 'waiting', code: 'waiting_for_capacity', message: 'The hosted account has no room for another batch.' } as HoldOutcome,
    placed: [] as string[],
    runner: {} as JobRunner,
  };
  state.runner = {
    async placeBatch(batch) {
      state.placed.push(batch.batchId);
      return state.answer;
    },
    async run(task, ctx) {
      ctx.measured(60);
      return { result: { text: `hosted ${task.jobId}` }, artifacts: [], durationSeconds: 60 };
    },
  };
  return state;
}

function hostedBatch(harness: Harness, count = 2): NewBatch {
  return {
    accountId: harness.accountId,
    product: 'speech-to-text',
    modelId: 'hosted',
    params: {},
    language: 'en',
    items: Array.from({ length: count }, (_, i) => ({ name: `clip-${i}.wav`, input: { fileName: `clip-${i}.wav` } })),
  };
}

async function batchEvent(harness: Harness, batchId: string, predicate: (b: Batch) => boolean, timeoutMs = scaled(30_000)): Promise<Batch> {
  const now = (await harness.service.getBatch(harness.accountId, 'speech-to-text', batchId))!;
  if (predicate(now)) return now;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`batch ${batchId}: condition not met within ${timeoutMs} ms`)), timeoutMs);
    const on = (b: Batch): void => {
      if (b.id !== batchId || !predicate(b)) return;
      clearTimeout(timer);
      harness.service.events.off('batch-changed', on);
      resolve(b);
    };
    harness.service.events.on('batch-changed', on);
  });
}

function setUp(extra: Parameters<typeof createHarness>[0] = {}): ReturnType<typeof scriptedRunner> {
  const script = scriptedRunner();
  h = createHarness({ schedulerIntervalMs: 50, runners: { remote: script.runner }, ...extra });
  h.models.set('hosted', { ...h.models.get('test-free')!, id: 'hosted', engine: 'remote', provider: 'remote', pricing: PRICED });
  return script;
}

describe('pending batch items', () => {
  it('are pending with no job until the runner accepts the batch, then queued jobs that run; one fee', async () => {
    const script = setUp();
    await h.service.start();
    const { batch } = await h.service.createBatch(hostedBatch(h));
    expect(batch).toMatchObject({ status: 'open', file_count: 2, remaining: 2, succeeded: 0, failed: 0 });
    expect(batch.files.map((f) => [f.status, f.job_id, f.name])).toEqual([['pending', null, 'clip-0.wav'], ['pending', null, 'clip-1.wav']]);
    const waiting = await batchEvent(h, batch.id, (b) => b.files.every((f) => f.error_code === 'waiting_for_capacity'));
    expect(waiting.files[0]!.error_message).toMatch(/no room/);
    expect((await h.service.listJobs(h.accountId, {})).data).toEqual([]);
    expect(await h.service.queueSummary(h.accountId)).toMatchObject({ queued: 0, running: 0, pending: 2 });

    script.answer = { kind: 'accepted' };
    const done = await batchEvent(h, batch.id, (b) => b.status === 'complete');
    expect(done).toMatchObject({ succeeded: 2, failed: 0, remaining: 0 });
    expect(done.files.every((f) => f.job_id !== null && f.status === 'succeeded' && f.error_code === null)).toBe(true);
    const jobs = (await h.service.listJobs(h.accountId, {})).data;
    expect(jobs.map((j) => [j.batch_id, j.language]).sort()).toEqual([[batch.id, 'en'], [batch.id, 'en']]);
    expect(new Set(jobs.map((j) => j.name))).toEqual(new Set(['clip-0.wav', 'clip-1.wav']));
    expect((await h.service.ledgerFor(h.accountId)).filter((e) => e.kind === 'request_fee')).toHaveLength(1);
    expect((await h.service.queueSummary(h.accountId)).pending).toBe(0);
  });

  it('a refused batch fails every item with the runner\'s code, and charges nothing', async () => {
    const script = setUp();
    script.answer = { kind: 'refused', code: 'remote_rejected', message: 'hosted service: the model is gone' };
    await h.service.start();
    const { batch } = await h.service.createBatch(hostedBatch(h, 3));
    const done = await batchEvent(h, batch.id, (b) => b.status === 'complete');
    expect(done).toMatchObject({ succeeded: 0, failed: 3, remaining: 0 });
    expect(done.files.map((f) => [f.status, f.error_code])).toEqual(Array.from({ length: 3 }, () => ['failed', 'remote_rejected']));
    expect(done.files.every((f) => f.job_id !== null)).toBe(true);
    expect(await h.service.ledgerFor(h.accountId)).toEqual([]);
  });

  it('a cancel ends pending items cancelled and completes the batch', async () => {
    setUp();
    await h.service.start();
    const { batch } = await h.service.createBatch(hostedBatch(h));
    await batchEvent(h, batch.id, (b) => b.files.every((f) => f.error_code === 'waiting_for_capacity'));
    const cancelled = (await h.service.cancelBatch(h.accountId, 'speech-to-text', batch.id))!;
    expect(cancelled).toMatchObject({ status: 'complete', failed: 2, remaining: 0 });
    expect(cancelled.files.map((f) => f.status)).toEqual(['cancelled', 'cancelled']);
  });

  it('pending items past the queue window expire', async () => {
    let now = Date.parse('2026-01-01T00:00:00.000Z');
    setUp({ clock: () => new Date(now), queueWindowSeconds: 60 });
    await h.service.start();
    const { batch } = await h.service.createBatch(hostedBatch(h));
    now += 61_000;
    await h.service.runMaintenance();
    const expired = (await h.service.getBatch(h.accountId, 'speech-to-text', batch.id))!;
    expect(expired).toMatchObject({ status: 'complete', failed: 2, remaining: 0 });
    expect(expired.files.map((f) => [f.status, f.error_code])).toEqual([['expired', 'expired'], ['expired', 'expired']]);
  });

  it('survive a restart and are placed by the next start', async () => {
    const script = setUp();
    const { batch } = await h.service.createBatch(hostedBatch(h));
    await h.service.shutdown(0);
    const again = scriptedRunner();
    again.answer = { kind: 'accepted' };
    const next = h.newService({ schedulerIntervalMs: 50, runners: { remote: again.runner } });
    await next.start();
    await new Promise<void>((resolve) => {
      const on = (b: Batch): void => {
        if (b.id === batch.id && b.status === 'complete') {
          next.events.off('batch-changed', on);
          resolve();
        }
      };
      next.events.on('batch-changed', on);
    });
    expect(await next.getBatch(h.accountId, 'speech-to-text', batch.id)).toMatchObject({ succeeded: 2, remaining: 0 });
    expect(script.placed).toEqual([]);
    expect(again.placed).toContain(batch.id);
  });

  it('a batch on a model that is not held is queued at once, as before', async () => {
    setUp();
    const { batch } = await h.service.createBatch({ ...hostedBatch(h), modelId: 'test-free' });
    expect(batch.files.every((f) => f.status === 'queued' && f.job_id !== null)).toBe(true);
  });
});
