/**
 * Two real services on loopback: a local one forwarding to a "hosted" one (its own data dir, key and real engines:
 * espeak-ng TTS, PocketSphinx STT). Jobs and batches are mirrored with their results; artifacts are downloaded
 * so the local link works; each side charges exactly once. A local batch is one hosted batch (batches.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Batch, CatalogueRecord, Job } from '../../../src-main/common/api-types.js';
import type { TestService } from '../../helpers/service.js';
import { startForwardingTo, startLocalInstance, type LocalInstance } from '../../helpers/local-instance.js';
import { JFK, api, audioForm, getBatch, hifiClips, listJobs, localLedger, startHosted, waitFor, waitForJob } from '../../helpers/two-instances.js';
import { scaled } from '../../helpers/time-scale.js';

let hosted: TestService;
let local: LocalInstance;

beforeAll(async () => {
  // A short hosted hold (the spec's is 4 minutes) keeps the held-POST paths quick; the client's submit timeout is longer.
  hosted = await startHosted({ holdSeconds: 8 });
  local = await startForwardingTo(hosted, { holdSeconds: 2 });
});

afterAll(async () => {
  await local?.stop();
  await hosted?.stop();
});

describe('forwarding to a hosted instance', () => {
  it('lists the hosted models as remote:<id> with the hosted prices, and quotes them', async () => {
    const { body } = await api<{ data: CatalogueRecord[] }>(local.url, local.key, 'GET', '/v1/models?include_unavailable=true');
    const espeak = body.data.find((m) => m.id === 'remote:espeak-ng');
    const sphinx = body.data.find((m) => m.id === 'remote:pocketsphinx-en-us');
    expect(espeak).toMatchObject({ provider: 'remote', engine: 'remote', capability: 'tts', status: 'available', products: ['text-to-speech'] });
    expect(sphinx).toMatchObject({ provider: 'remote', capability: 'asr', status: 'available' });
    // The local on-device models keep their plain ids.
    expect(body.data.find((m) => m.id === 'espeak-ng')?.provider).toBe('local');
    // Test-engine rows of the hosted instance come along with their prices.
    const priced = body.data.find((m) => m.id === 'remote:test-asr')!;
    expect(priced.pricing).toMatchObject({ request_fee_usd: 0.05, per_minute_usd: 0.006 });
    const quote = await api<{ total_usd: number }>(local.url, local.key, 'GET', '/v1/models/remote:test-asr/quote?seconds=60');
    expect(quote.body.total_usd).toBeCloseTo(0.056, 6);
  }, scaled(240_000));

  it('forwards a text-to-speech job, mirrors it and serves the downloaded audio locally', async () => {
    const { status, body: job } = await api<Job>(local.url, local.key, 'POST', '/v1/text-to-speech', {
      model: 'remote:espeak-ng',
      text: 'Hello from the hosted service.',
      name: 'greeting',
    });
    expect(status).toBe(200);
    const done = job.finished_at ? job : await waitForJob(local.url, local.key, 'text-to-speech', job.id);
    expect(done).toMatchObject({ status: 'succeeded', model_id: 'remote:espeak-ng', name: 'greeting', error_code: null });
    const artifact = done.result!.artifacts![0]!;
    expect(artifact.url.startsWith(`${local.url}/v1/artifacts/`)).toBe(true);
    const audio = await fetch(artifact.url);
    expect(audio.status).toBe(200);
    const bytes = Buffer.from(await audio.arrayBuffer());
    expect(bytes.subarray(0, 4).toString()).toBe('RIFF');
    expect(artifact.bytes).toBe(bytes.length);

    const remoteRow = (await local.remote.jobsRepo.get(done.id))!;
    expect(remoteRow).toMatchObject({ idempotency_key: `voxdesk-${done.id}`, remote_status: 'succeeded', submissions: 1 });
    const hostedJob = (await listJobs(hosted.url, hosted.key)).find((j) => j.id === remoteRow.remote_job_id)!;
    expect(hostedJob).toMatchObject({ status: 'succeeded', model_id: 'espeak-ng', name: 'greeting' });
    expect(done.duration_seconds).toBe(hostedJob.duration_seconds);
  }, scaled(240_000));

  it('forwards a speech-to-text job with the transcript and duration mirrored; one charge on each side', async () => {
    const { body: job } = await api<Job>(local.url, local.key, 'POST', '/v1/speech-to-text', audioForm('remote:pocketsphinx-en-us', [JFK], { name: 'jfk' }));
    const done = job.finished_at ? job : await waitForJob(local.url, local.key, 'speech-to-text', job.id);
    expect(done.status).toBe('succeeded');
    const remoteId = (await local.remote.jobsRepo.get(done.id))!.remote_job_id!;
    const hostedJob = (await listJobs(hosted.url, hosted.key)).find((j) => j.id === remoteId)!;
    expect(done.result!.text).toBe(hostedJob.result!.text);
    expect(done.result!.text!.length).toBeGreaterThan(10);
    expect(Number(done.duration_seconds)).toBeCloseTo(11, 0);
    expect(done.duration_seconds).toBe(hostedJob.duration_seconds);

    const mine = localLedger(local.db).filter((e) => e.job_id === done.id);
    const theirs = localLedger(hosted.service.db).filter((e) => e.job_id === remoteId);
    expect(mine.map((e) => e.kind).sort()).toEqual(['request_fee', 'usage']);
    expect(theirs.map((e) => e.kind).sort()).toEqual(['request_fee', 'usage']);
  }, scaled(240_000));

  it('forwards a local batch as one hosted batch, each item mirrored with its transcript', async () => {
    const clips = hifiClips(3);
    const { status, body: batch } = await api<Batch>(local.url, local.key, 'POST', '/v1/speech-to-text/batch', audioForm('remote:pocketsphinx-en-us', clips));
    expect(status).toBe(200);
    const done = await waitFor('the batch to complete', async () => {
      const b = await getBatch(local.url, local.key, 'speech-to-text', batch.id);
      return b.status === 'complete' ? b : undefined;
    }, scaled(120_000));
    expect(done).toMatchObject({ succeeded: 3, failed: 0, remaining: 0 });
    expect(done.files.map((f) => f.name)).toEqual(clips.map((c) => c.split('/').pop()));
    for (const file of done.files) expect(file.result?.text?.length ?? 0).toBeGreaterThan(0);
    const remoteIds = await Promise.all(done.files.map(async (f) => (await local.remote.jobsRepo.get(f.job_id!))!.remote_job_id));
    expect(new Set(remoteIds).size).toBe(3);
    const remoteBatch = await getBatch(hosted.url, hosted.key, 'speech-to-text', (await local.remote.batchesRepo.get(batch.id))!.remote_batch_id!);
    expect(remoteBatch.files.map((f) => f.job_id)).toEqual(remoteIds);
  }, scaled(240_000));

  it('passes the hosted error code through when the hosted job fails', async () => {
    const { body: job } = await api<Job>(local.url, local.key, 'POST', '/v1/speech-to-text',
      audioForm('remote:test-asr', [JFK], { params: JSON.stringify({ behaviour: 'fail', code: 'audio_decode_failed', message: 'bad audio' }) }));
    const done = job.finished_at ? job : await waitForJob(local.url, local.key, 'speech-to-text', job.id);
    expect(done).toMatchObject({ status: 'failed', error_code: 'audio_decode_failed' });
    expect(localLedger(local.db).filter((e) => e.job_id === done.id)).toEqual([]);
  }, scaled(240_000));

  it('fails with the hosted rejection code when the hosted service refuses the upload', async () => {
    const form = new FormData();
    form.append('model', 'remote:pocketsphinx-en-us');
    form.append('file', new Blob(['this is not audio at all']), 'notes.txt');
    const { body: job } = await api<Job>(local.url, local.key, 'POST', '/v1/speech-to-text', form);
    const done = job.finished_at ? job : await waitForJob(local.url, local.key, 'speech-to-text', job.id);
    expect(done.status).toBe('failed');
    expect(['unsupported_audio', 'audio_decode_failed']).toContain(done.error_code);
    expect(done.error_message!.length).toBeGreaterThan(5);
  }, scaled(240_000));

  it('cancels the hosted job when the local job is cancelled, also while the hosted POST is held', async () => {
    const { body: job } = await api<Job>(local.url, local.key, 'POST', '/v1/speech-to-text',
      audioForm('remote:test-asr', [JFK], { params: JSON.stringify({ behaviour: 'sleep', ms: 120_000 }) }));
    const hostedJob = await waitFor('the hosted job to run', async () => (await listJobs(hosted.url, hosted.key)).find((j) => j.status === 'running'));
    // The POST is still held (hold 30 s): the hosted id is not known yet.
    expect((await local.remote.jobsRepo.get(job.id))?.remote_job_id).toBeNull();
    const cancelled = await api<Job>(local.url, local.key, 'POST', `/v1/speech-to-text/${job.id}/cancel`);
    expect(cancelled.status).toBe(200);
    const done = await waitForJob(local.url, local.key, 'speech-to-text', job.id);
    expect(done).toMatchObject({ status: 'cancelled', error_code: 'cancelled' });
    const after = await waitFor('the hosted job to be cancelled', async () => {
      const j = (await api<Job>(hosted.url, hosted.key, 'GET', `/v1/speech-to-text/${hostedJob.id}`)).body;
      return j.status === 'cancelled' ? j : undefined;
    }, scaled(60_000));
    expect(after.error_code).toBe('cancelled');
    expect((await local.remote.jobsRepo.get(job.id))?.remote_job_id).toBe(hostedJob.id);
    expect(localLedger(local.db).filter((e) => e.job_id === job.id)).toEqual([]);
  }, scaled(240_000));

  it('does not cancel the hosted job when the local service shuts down; the next start follows it', async () => {
    const { body: job } = await api<Job>(local.url, local.key, 'POST', '/v1/speech-to-text',
      audioForm('remote:test-asr', [JFK], { params: JSON.stringify({ behaviour: 'sleep', ms: 4000, seconds: 2 }) }));
    const remoteId = await waitFor('the hosted job id', async () => (await local.remote.jobsRepo.get(job.id))?.remote_job_id ?? undefined);
    const { dataDir } = local;
    await local.stop(false);
    local = await startLocalInstance({ dataDir, remoteUrl: hosted.url, remoteKey: hosted.key, holdSeconds: 2 });
    const done = await waitForJob(local.url, local.key, 'speech-to-text', job.id);
    expect(done).toMatchObject({ status: 'succeeded', duration_seconds: '2.000' });
    expect(await local.remote.jobsRepo.get(job.id)).toMatchObject({ remote_job_id: remoteId, submissions: 1 });
    const hostedJob = (await api<Job>(hosted.url, hosted.key, 'GET', `/v1/speech-to-text/${remoteId}`)).body;
    expect(hostedJob.status).toBe('succeeded');
  }, scaled(240_000));
});
