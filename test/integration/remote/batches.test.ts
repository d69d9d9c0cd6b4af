/**
 * A local batch on a hosted model is forwarded as ONE hosted batch: two real services on loopback (espeak-ng TTS,
 * PocketSphinx STT, the test engine on the hosted side). The hosted side holds exactly one batch with one job per
 * item; both ledgers show one request fee for the batch and one usage row per succeeded item, with equal amounts.
 * Until the hosted service has accepted the batch its items are `pending` (spec: accepted, not yet queued; no
 * job_id yet, counted in remaining): the hosted account's two-open-batches limit (429 too_many_open_batches) keeps
 * them pending with waiting_for_capacity until the hosted side has room, and a cancel then ends them without any
 * hosted batch; a local batch cancel after acceptance cancels the hosted batch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Batch } from '../../../src-main/common/api-types.js';
import type { LedgerEntry } from '../../../src-main/store/ledger-repo.js';
import type { TestService } from '../../helpers/service.js';
import { startForwardingTo, type LocalInstance } from '../../helpers/local-instance.js';
import { JFK, api, audioForm, getBatch, hifiClips, localLedger, startHosted, waitFor } from '../../helpers/two-instances.js';
import { scaled } from '../../helpers/time-scale.js';

let hosted: TestService;
let local: LocalInstance;

beforeAll(async () => {
  hosted = await startHosted({ holdSeconds: 8 });
  local = await startForwardingTo(hosted, { holdSeconds: 2 });
});

afterAll(async () => {
  await local?.stop();
  await hosted?.stop();
});

async function hostedBatches(): Promise<Batch[]> {
  return (await api<{ data: Batch[] }>(hosted.url, hosted.key, 'GET', '/v1/batches?limit=100')).body.data;
}

async function untilComplete(base: string, key: string, product: string, id: string, timeoutMs = scaled(120_000)): Promise<Batch> {
  return waitFor(`batch ${id} to complete`, async () => {
    const b = await getBatch(base, key, product, id);
    return b.status === 'complete' ? b : undefined;
  }, timeoutMs);
}

/** The ledger rows of one batch (its request fee and its items' usage), kind and amount, sorted. */
function rowsOf(entries: LedgerEntry[], batchId: string): { kind: string; amount: number }[] {
  return entries
    .filter((e) => e.batch_id === batchId)
    .map((e) => ({ kind: e.kind, amount: e.amount_usd_micro }))
    .sort((a, b) => (a.kind === b.kind ? a.amount - b.amount : a.kind < b.kind ? -1 : 1));
}

/** Forwards, waits, and checks the acceptance: one hosted batch with N jobs; ledgers that agree. */
async function expectOneHostedBatch(product: string, localBatch: Batch, count: number): Promise<{ done: Batch; remote: Batch }> {
  const done = await untilComplete(local.url, local.key, product, localBatch.id);
  expect(done).toMatchObject({ succeeded: count, failed: 0, remaining: 0 });
  const row = (await local.remote.batchesRepo.get(localBatch.id))!;
  expect(row).toMatchObject({ idempotency_key: `voxdesk-${localBatch.id}`, submissions: 1, rejected_code: null });
  const remote = await getBatch(hosted.url, hosted.key, product, row.remote_batch_id!);
  expect(remote).toMatchObject({ status: 'complete', file_count: count, succeeded: count, model_id: localBatch.model_id.replace(/^remote:/, '') });
  // Items map by position: each local item mirrors the hosted item at the same place.
  for (const [i, file] of done.files.entries()) {
    expect((await local.remote.jobsRepo.get(file.job_id!))!.remote_job_id).toBe(remote.files[i]!.job_id);
    expect(file.name).toBe(remote.files[i]!.name);
    expect(file.result?.text ?? null).toBe(remote.files[i]!.result?.text ?? null);
  }
  const mine = rowsOf(localLedger(local.db), localBatch.id);
  const theirs = rowsOf(localLedger(hosted.service.db), remote.id);
  expect(mine.filter((e) => e.kind === 'request_fee')).toHaveLength(1);
  expect(mine.filter((e) => e.kind === 'usage')).toHaveLength(count);
  expect(mine).toEqual(theirs);
  return { done, remote };
}

describe('local batches forwarded as one hosted batch', () => {
  it('speech-to-text: 3 files → one hosted batch with 3 jobs; one request fee and 3 usage rows on each side', async () => {
    const before = (await hostedBatches()).length;
    const clips = hifiClips(3);
    const { status, body: batch } = await api<Batch>(local.url, local.key, 'POST', '/v1/speech-to-text/batch', audioForm('remote:pocketsphinx-en-us', clips));
    expect(status).toBe(200);
    const { done, remote } = await expectOneHostedBatch('speech-to-text', batch, 3);
    expect(done.files.map((f) => f.name)).toEqual(clips.map((c) => c.split('/').pop()));
    for (const file of done.files) expect(file.result?.text?.length ?? 0).toBeGreaterThan(0);
    expect((await hostedBatches()).length).toBe(before + 1);
    const items = await Promise.all(done.files.map(async (f) => (await api<{ duration_seconds: string }>(local.url, local.key, 'GET', `/v1/speech-to-text/${f.job_id}`)).body));
    const hostedItems = await Promise.all(remote.files.map(async (f) => (await api<{ duration_seconds: string }>(hosted.url, hosted.key, 'GET', `/v1/speech-to-text/${f.job_id}`)).body));
    expect(items.map((j) => j.duration_seconds)).toEqual(hostedItems.map((j) => j.duration_seconds));
  }, scaled(240_000));

  it('text-to-speech: 3 texts → one hosted batch; labels kept, audio downloaded, ledgers agree', async () => {
    const before = (await hostedBatches()).length;
    const items = [
      { text: 'The first sentence.', name: 'one' },
      { text: 'A second, slightly longer sentence to speak.', name: 'two' },
      { text: 'Third.', name: 'three' },
    ];
    const { status, body: batch } = await api<Batch>(local.url, local.key, 'POST', '/v1/text-to-speech/batch', { model: 'remote:espeak-ng', items });
    expect(status).toBe(200);
    const { done } = await expectOneHostedBatch('text-to-speech', batch, 3);
    expect(done.files.map((f) => f.name)).toEqual(['one', 'two', 'three']);
    for (const file of done.files) {
      const artifact = file.result!.artifacts![0]!;
      expect(artifact.url.startsWith(`${local.url}/v1/artifacts/`)).toBe(true);
      const audio = Buffer.from(await (await fetch(artifact.url)).arrayBuffer());
      expect(audio.subarray(0, 4).toString()).toBe('RIFF');
    }
    expect((await hostedBatches()).length).toBe(before + 1);
  }, scaled(240_000));

  it('items stay pending (no job_id, waiting_for_capacity) while the hosted account has two open batches, then go through', async () => {
    const sleepy = JSON.stringify({ behaviour: 'sleep', ms: 120_000 });
    const open: Batch[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await api<Batch>(hosted.url, hosted.key, 'POST', '/v1/speech-to-text/batch', audioForm('test-asr', [JFK], { params: sleepy }));
      expect(r.status).toBe(200);
      open.push(r.body);
    }
    const third = await api<{ error: { code: string } }>(hosted.url, hosted.key, 'POST', '/v1/speech-to-text/batch', audioForm('test-asr', [JFK]));
    expect([third.status, third.body.error.code]).toEqual([429, 'too_many_open_batches']);

    const form = audioForm('remote:test-asr', [JFK, JFK], { params: JSON.stringify({ behaviour: 'succeed', seconds: 2 }) });
    const { status, body: batch } = await api<Batch>(local.url, local.key, 'POST', '/v1/speech-to-text/batch', form);
    expect(status).toBe(200);
    expect(batch.files.map((f) => [f.status, f.job_id])).toEqual([['pending', null], ['pending', null]]);
    expect(batch).toMatchObject({ status: 'open', file_count: 2, remaining: 2, succeeded: 0, failed: 0 });
    const waiting = await waitFor('the items to wait for hosted capacity', async () => {
      const b = await getBatch(local.url, local.key, 'speech-to-text', batch.id);
      return b.files.every((f) => f.status === 'pending' && f.error_code === 'waiting_for_capacity') ? b : undefined;
    });
    expect(waiting.files.map((f) => f.job_id)).toEqual([null, null]);
    expect(waiting.remaining).toBe(2);
    expect(waiting.files[0]!.error_message).toMatch(/hosted account/);
    expect(await local.remote.batchesRepo.get(batch.id)).toMatchObject({ remote_batch_id: null });
    // Pending items are not jobs yet: no job lists them, the queue summary counts them apart.
    const jobs = (await api<{ data: { batch_id: string | null }[] }>(local.url, local.key, 'GET', '/v1/jobs?limit=100')).body.data;
    expect(jobs.filter((j) => j.batch_id === batch.id)).toEqual([]);
    expect((await api<{ pending: number }>(local.url, local.key, 'GET', '/v1/queue')).body.pending).toBeGreaterThanOrEqual(2);

    // One hosted batch completes (cancelled): the forwarded batch is accepted on a later try.
    expect((await api(hosted.url, hosted.key, 'POST', `/v1/speech-to-text/batch/${open[0]!.id}/cancel`)).status).toBe(200);
    const remoteId = await waitFor('the forwarded batch to be accepted', async () => (await local.remote.batchesRepo.get(batch.id))?.remote_batch_id ?? undefined, scaled(90_000));
    expect((await local.remote.batchesRepo.get(batch.id))!.submissions).toBeGreaterThanOrEqual(2);
    // Accepted: every item is now a queued (or running) job with its id.
    const queued = await waitFor('the items to be queued', async () => {
      const b = await getBatch(local.url, local.key, 'speech-to-text', batch.id);
      return b.files.every((f) => f.job_id !== null && f.status !== 'pending') ? b : undefined;
    });
    expect(queued.files.every((f) => f.error_code !== 'waiting_for_capacity' || f.status === 'queued')).toBe(true);
    // Free the hosted worker (the other sleeping batch) so the forwarded items run.
    await api(hosted.url, hosted.key, 'POST', `/v1/speech-to-text/batch/${open[1]!.id}/cancel`);
    const done = await untilComplete(local.url, local.key, 'speech-to-text', batch.id);
    expect(done).toMatchObject({ succeeded: 2, failed: 0 });
    const remote = await getBatch(hosted.url, hosted.key, 'speech-to-text', remoteId);
    expect(remote).toMatchObject({ status: 'complete', succeeded: 2, file_count: 2 });
    // Refused submissions created nothing: the hosted side holds this one batch for it, and one fee each side.
    expect(rowsOf(localLedger(local.db), batch.id)).toEqual(rowsOf(localLedger(hosted.service.db), remoteId));
    expect(rowsOf(localLedger(local.db), batch.id).filter((e) => e.kind === 'request_fee')).toHaveLength(1);
  }, scaled(240_000));

  it('a batch cancelled while its items are pending ends them cancelled and posts nothing more to the hosted side', async () => {
    const sleepy = JSON.stringify({ behaviour: 'sleep', ms: 120_000 });
    const open: Batch[] = [];
    for (let i = 0; i < 2; i++) open.push((await api<Batch>(hosted.url, hosted.key, 'POST', '/v1/speech-to-text/batch', audioForm('test-asr', [JFK], { params: sleepy }))).body);
    const before = (await hostedBatches()).length;
    const { body: batch } = await api<Batch>(local.url, local.key, 'POST', '/v1/speech-to-text/batch', audioForm('remote:test-asr', [JFK, JFK]));
    await waitFor('the items to wait for hosted capacity', async () =>
      (await getBatch(local.url, local.key, 'speech-to-text', batch.id)).files.every((f) => f.error_code === 'waiting_for_capacity') || undefined);
    const cancelled = (await api<Batch>(local.url, local.key, 'POST', `/v1/speech-to-text/batch/${batch.id}/cancel`)).body;
    expect(cancelled).toMatchObject({ status: 'complete', failed: 2, remaining: 0 });
    expect(cancelled.files.map((f) => f.status)).toEqual(['cancelled', 'cancelled']);
    for (const b of open) await api(hosted.url, hosted.key, 'POST', `/v1/speech-to-text/batch/${b.id}/cancel`);
    const submissions = (await local.remote.batchesRepo.get(batch.id))?.submissions ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect((await local.remote.batchesRepo.get(batch.id))?.submissions ?? 0).toBe(submissions);
    expect((await hostedBatches()).length).toBe(before);
    expect(rowsOf(localLedger(local.db), batch.id)).toEqual([]);
  }, scaled(240_000));

  it('cancelling the local batch cancels the hosted batch; nothing is charged on either side', async () => {
    const form = audioForm('remote:test-asr', [JFK, JFK], { params: JSON.stringify({ behaviour: 'sleep', ms: 120_000 }) });
    const { body: batch } = await api<Batch>(local.url, local.key, 'POST', '/v1/speech-to-text/batch', form);
    const remoteId = await waitFor('the hosted batch', async () => (await local.remote.batchesRepo.get(batch.id))?.remote_batch_id ?? undefined);
    await waitFor('a hosted item to run', async () => (await getBatch(hosted.url, hosted.key, 'speech-to-text', remoteId)).files.some((f) => f.status === 'running'));
    await waitFor('a local item to follow it', async () => (await getBatch(local.url, local.key, 'speech-to-text', batch.id)).files.some((f) => f.status === 'running'));
    expect((await api(local.url, local.key, 'POST', `/v1/speech-to-text/batch/${batch.id}/cancel`)).status).toBe(200);
    const done = await untilComplete(local.url, local.key, 'speech-to-text', batch.id, scaled(60_000));
    expect(done.files.map((f) => f.status)).toEqual(['cancelled', 'cancelled']);
    const remote = await untilComplete(hosted.url, hosted.key, 'speech-to-text', remoteId, scaled(60_000));
    expect(remote.files.map((f) => f.status)).toEqual(['cancelled', 'cancelled']);
    expect(rowsOf(localLedger(local.db), batch.id)).toEqual([]);
    expect(rowsOf(localLedger(hosted.service.db), remoteId)).toEqual([]);
  }, scaled(240_000));
});
