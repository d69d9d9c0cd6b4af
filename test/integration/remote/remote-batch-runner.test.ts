/**
 * The batch coordinator against a scripted hosted side (node:http on loopback — the network is the boundary) and a
 * real SQLite file: item runs of one local batch share ONE hosted submission (JSON items for TTS, Idempotency-Key
 * voxdesk-<batch id>) and one poller; a hosted rejection fails every item without posting again; a 429 makes the
 * items wait (waiting_for_capacity, readiness holds the siblings); a cancel without the hosted batch-cancel route
 * (404) cancels the hosted items one by one.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { JobError } from '../../../src-main/common/errors.js';
import type { RunnerContext, RunnerTask } from '../../../src-main/jobs/engine/job-runner.js';
import type { RemoteProvider } from '../../../src-main/remote/remote-provider.js';
import type { Db } from '../../../src-main/store/database.js';
import { AT, runnerTask, send, startScriptedHosted, type ScriptedHosted } from '../../helpers/scripted-hosted.js';
import { waitFor } from '../../helpers/two-instances.js';

let hosted: ScriptedHosted;
let remote: RemoteProvider;
let db: Db;

beforeAll(async () => {
  hosted = await startScriptedHosted('remote-batch', {
    offlineInitialMs: 20,
    offlineMaxMs: 50,
    serverErrorRetries: 1,
    pollInitialMs: 10,
    batchPollInitialMs: 10,
    pollMaxMs: 30,
    capacityInitialMs: 60_000,
  });
  ({ remote, db } = hosted);
});
beforeEach(() => hosted.reset());
afterAll(() => hosted?.close());

let seq = 0;

/** A local TTS batch of `texts` (rows as the job engine writes them, items running) and one run per item. */
function localBatch(texts: string[]): { batchId: string; runs: { task: RunnerTask; ctx: RunnerContext; abort: AbortController }[] } {
  const batchId = `bat_${++seq}`;
  db.prepare(`INSERT INTO batches (id, account_id, product, model_id, params_json, status, file_count, created_at)
    VALUES (?, 'acc_1', 'text-to-speech', 'remote:tts', '{}', 'open', ?, '${AT}')`).run(batchId, texts.length);
  const runs = texts.map((text, position) => {
    const jobId = `job_${seq}_${position}`;
    db.prepare(`INSERT INTO jobs (id, account_id, product, model_id, name, status, params_json, input_json, batch_id, created_at, updated_at)
      VALUES (?, 'acc_1', 'text-to-speech', 'remote:tts', ?, 'running', '{}', ?, ?, '${AT}', '${AT}')`).run(jobId, text, JSON.stringify({ text }), batchId);
    db.prepare('INSERT INTO batch_items (batch_id, position, name, job_id) VALUES (?, ?, ?, ?)').run(batchId, position, text, jobId);
    const abort = new AbortController();
    return { ...runnerTask(hosted, jobId, text, abort.signal), abort };
  });
  return { batchId, runs };
}

function hostedBatch(id: string, statuses: string[]): Record<string, unknown> {
  return {
    id,
    status: statuses.every((s) => ['succeeded', 'failed', 'cancelled'].includes(s)) ? 'complete' : 'open',
    files: statuses.map((status, i) => ({ job_id: `${id}_j${i}`, name: `t${i}`, status, result: null, error_code: null, error_message: null, progress: null })),
  };
}

async function errorOf(promise: Promise<unknown>): Promise<JobError> {
  const error = await promise.then(() => new Error('expected a failure'), (e: unknown) => e);
  expect(error).toBeInstanceOf(JobError);
  return error as JobError;
}

describe('batch coordinator', () => {
  it('shares one hosted submission and one poller between the item runs, and maps items by position', async () => {
    let polls = 0;
    hosted.handler = (call, res) => {
      if (call.method === 'POST') return send(res, 200, hostedBatch('hb1', ['queued', 'queued']));
      if (call.url === '/v1/text-to-speech/batch/hb1') {
        polls++;
        return send(res, 200, hostedBatch('hb1', polls < 3 ? ['running', 'queued'] : ['succeeded', 'succeeded']));
      }
      const index = Number(/_j(\d)$/.exec(call.url)![1]);
      send(res, 200, { id: `hb1_j${index}`, status: 'succeeded', duration_seconds: `${index + 1}.000`, result: { text: `spoken ${index}` } });
    };
    const { batchId, runs } = localBatch(['a', 'b']);
    const outputs = await Promise.all(runs.map((r) => remote.jobRunner.run(r.task, r.ctx)));
    expect(outputs.map((o) => [o.result.text, o.durationSeconds])).toEqual([['spoken 0', 1], ['spoken 1', 2]]);
    const posts = hosted.calls.filter((c) => c.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ url: '/v1/text-to-speech/batch', idempotencyKey: `voxdesk-${batchId}` });
    expect(JSON.parse(posts[0]!.body)).toEqual({ model: 'tts', params: {}, items: [{ text: 'a', name: 'a' }, { text: 'b', name: 'b' }] });
    expect(await remote.batchesRepo.get(batchId)).toMatchObject({ remote_batch_id: 'hb1', remote_status: 'complete', submissions: 1, positions_json: '[0,1]' });
    expect(await remote.jobsRepo.get(runs[1]!.task.jobId)).toMatchObject({ remote_job_id: 'hb1_j1', remote_status: 'succeeded' });
    // One poller: the two waiting runs did not each poll the batch.
    expect(polls).toBeLessThanOrEqual(4);
  });

  it('fails every item with the hosted rejection code and does not post the batch again', async () => {
    hosted.handler = (_call, res) => send(res, 422, { error: { code: 'text_too_long', message: 'items[1].text is too long' } });
    const { batchId, runs } = localBatch(['x', 'y']);
    const first = await errorOf(remote.jobRunner.run(runs[0]!.task, runs[0]!.ctx));
    const second = await errorOf(remote.jobRunner.run(runs[1]!.task, runs[1]!.ctx));
    expect([first.code, second.code]).toEqual(['text_too_long', 'text_too_long']);
    expect(second.message).toMatch(/too long/);
    expect(hosted.calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    expect(await remote.batchesRepo.get(batchId)).toMatchObject({ remote_status: 'rejected', rejected_code: 'text_too_long' });
  });

  it('waits with waiting_for_capacity on a hosted 429 and holds the other items back', async () => {
    hosted.handler = (_call, res) => send(res, 429, { error: { code: 'too_many_open_batches', message: 'two open batches' } });
    const { batchId, runs } = localBatch(['p', 'q']);
    const error = await errorOf(remote.jobRunner.run(runs[0]!.task, runs[0]!.ctx));
    expect(error.code).toBe('waiting_for_capacity');
    expect(error.message).toMatch(/hosted account/);
    const definition = runs[1]!.task.definition;
    expect(remote.jobRunner.readiness!(definition, { jobId: runs[1]!.task.jobId, batchId })).toMatchObject({ code: 'waiting_for_capacity' });
    // Other jobs are not held back by this batch.
    expect(remote.jobRunner.readiness!(definition, { jobId: 'job_other', batchId: null })).toBeNull();
    // A sibling claimed during the backoff does not post again.
    expect((await errorOf(remote.jobRunner.run(runs[1]!.task, runs[1]!.ctx))).code).toBe('waiting_for_capacity');
    expect(hosted.calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    expect(await remote.batchesRepo.get(batchId)).toMatchObject({ remote_batch_id: null, submissions: 1 });
  });

  it('cancels the hosted items one by one when the hosted side has no batch-cancel route', async () => {
    hosted.handler = (call, res) => {
      if (call.url === '/v1/text-to-speech/batch') return send(res, 200, hostedBatch('hb2', ['running', 'queued']));
      if (call.url === '/v1/text-to-speech/batch/hb2/cancel') return send(res, 404, { error: { code: 'not_found', message: 'no such route' } });
      if (call.url.endsWith('/cancel')) return send(res, 200, { id: 'x', status: 'cancelled' });
      send(res, 200, hostedBatch('hb2', ['running', 'queued']));
    };
    const { runs } = localBatch(['c', 'd']);
    const running = runs.map((r) => remote.jobRunner.run(r.task, r.ctx).then(() => undefined, (e: unknown) => e));
    await waitFor('the hosted batch to be polled', () => hosted.calls.some((c) => c.url === '/v1/text-to-speech/batch/hb2'));
    db.prepare(`UPDATE jobs SET cancel_requested = 1 WHERE id IN (?, ?)`).run(runs[0]!.task.jobId, runs[1]!.task.jobId);
    for (const r of runs) r.abort.abort();
    const errors = await Promise.all(running);
    expect(errors.map((e) => (e as JobError).code)).toEqual(['cancelled', 'cancelled']);
    const cancels = hosted.calls.filter((c) => c.url.endsWith('/cancel')).map((c) => c.url);
    expect(cancels).toEqual(['/v1/text-to-speech/batch/hb2/cancel', '/v1/text-to-speech/hb2_j0/cancel', '/v1/text-to-speech/hb2_j1/cancel']);
  });
});

describe('cancelling one item of a forwarded batch', () => {
  it('cancels only that hosted item; the sibling keeps following the batch', async () => {
    let done = false;
    hosted.handler = (call, res) => {
      if (call.url === '/v1/text-to-speech/batch') return send(res, 200, hostedBatch('hb4', ['running', 'running']));
      if (call.url.endsWith('/cancel')) return send(res, 200, { id: 'x', status: 'cancelled' });
      if (call.url === '/v1/text-to-speech/batch/hb4') return send(res, 200, hostedBatch('hb4', done ? ['cancelled', 'succeeded'] : ['running', 'running']));
      send(res, 200, { id: 'hb4_j1', status: 'succeeded', duration_seconds: '1.000', result: { text: 'kept' } });
    };
    const { runs } = localBatch(['g', 'h']);
    const first = remote.jobRunner.run(runs[0]!.task, runs[0]!.ctx).then(() => undefined, (e: unknown) => e);
    const second = remote.jobRunner.run(runs[1]!.task, runs[1]!.ctx);
    await waitFor('the hosted batch to be polled', () => hosted.calls.some((c) => c.url === '/v1/text-to-speech/batch/hb4'));
    db.prepare('UPDATE jobs SET cancel_requested = 1 WHERE id = ?').run(runs[0]!.task.jobId);
    runs[0]!.abort.abort();
    expect(((await first) as JobError).code).toBe('cancelled');
    expect(hosted.calls.filter((c) => c.url.endsWith('/cancel')).map((c) => c.url)).toEqual(['/v1/text-to-speech/hb4_j0/cancel']);
    done = true;
    expect((await second).result.text).toBe('kept');
  });
});

describe('orphaned hosted batches', () => {
  it('cancels a hosted batch whose local items all ended while not running here, once', async () => {
    let open = true;
    hosted.handler = (call, res) => {
      if (call.url === '/v1/text-to-speech/batch') return send(res, 200, hostedBatch('hb3', ['queued', 'queued']));
      if (call.url === '/v1/text-to-speech/batch/hb3/cancel') {
        open = false;
        return send(res, 200, hostedBatch('hb3', ['cancelled', 'cancelled']));
      }
      send(res, 200, hostedBatch('hb3', open ? ['queued', 'queued'] : ['cancelled', 'cancelled']));
    };
    const { batchId, runs } = localBatch(['e', 'f']);
    const running = runs.map((r) => remote.jobRunner.run(r.task, r.ctx).then(() => undefined, (e: unknown) => e));
    await waitFor('the hosted batch to be polled', () => hosted.calls.some((c) => c.url === '/v1/text-to-speech/batch/hb3'));
    // A shutdown (abort without a cancel request) leaves the hosted batch running, as it should…
    for (const r of runs) r.abort.abort();
    await Promise.all(running);
    expect(hosted.calls.some((c) => c.url.endsWith('/cancel'))).toBe(false);
    await remote.cancelOrphanBatches();
    expect(hosted.calls.some((c) => c.url.endsWith('/cancel'))).toBe(false);
    // …then the local items end without running (cancelled while queued): the sweep cancels the hosted batch.
    db.prepare(`UPDATE jobs SET status = 'cancelled' WHERE batch_id = ?`).run(batchId);
    await remote.cancelOrphanBatches();
    await remote.cancelOrphanBatches();
    expect(hosted.calls.filter((c) => c.url.endsWith('/cancel')).map((c) => c.url)).toEqual(['/v1/text-to-speech/batch/hb3/cancel']);
    expect(await remote.batchesRepo.get(batchId)).toMatchObject({ remote_status: 'complete' });
  });
});
