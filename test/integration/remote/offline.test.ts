/**
 * The hosted instance goes away and comes back on the same port and data dir: before submission (the acceptance
 * case: 5 recordings wait with waiting_for_network, then all finish and the hosted side holds exactly 5 jobs),
 * during a held POST, and while a local batch is being forwarded. Nothing is lost and nothing runs twice.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Batch, Job } from '../../../src-main/common/api-types.js';
import type { TestService } from '../../helpers/service.js';
import { startLocalInstance, type LocalInstance } from '../../helpers/local-instance.js';
import { JFK, api, audioForm, getBatch, hifiClips, listJobs, localLedger, startHosted, waitFor } from '../../helpers/two-instances.js';
import { scaled } from '../../helpers/time-scale.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** A hosted instance whose data dir outlives it, so it can be stopped and started again on the same port. */
async function hostedThatRestarts(): Promise<{ first: TestService; restart(): Promise<TestService>; current(): TestService | undefined }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'voxdesk-hosted-'));
  let current: TestService | undefined = await startHosted({ dataDir });
  const port = Number(new URL(current.url).port);
  cleanups.push(async () => {
    await current?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    first: current,
    async restart() {
      current = await startHosted({ dataDir, port });
      return current;
    },
    current: () => current,
  };
}

async function stopHosted(h: { current(): TestService | undefined }): Promise<void> {
  await h.current()?.stop();
}

async function local(hosted: TestService): Promise<LocalInstance> {
  const instance = await startLocalInstance({ remoteUrl: hosted.url, remoteKey: hosted.key, holdSeconds: 1 });
  cleanups.push(() => instance.stop());
  await instance.remote.source.refresh();
  return instance;
}

describe('offline queue', () => {
  it('acceptance: 5 recordings wait for the network while the hosted service is down, then all finish; hosted holds exactly 5', async () => {
    const h = await hostedThatRestarts();
    const { key: hostedKey, url: hostedUrl } = h.first;
    const me = await local(h.first);
    await stopHosted(h);

    const clips = hifiClips(5);
    const ids: string[] = [];
    for (const clip of clips) {
      const { status, body } = await api<Job>(me.url, me.key, 'POST', '/v1/speech-to-text', audioForm('remote:pocketsphinx-en-us', [clip]));
      expect(status).toBe(200);
      ids.push(body.id);
    }
    const waiting = await waitFor('all 5 jobs to wait for the network', async () => {
      const jobs = await Promise.all(ids.map(async (id) => (await api<Job>(me.url, me.key, 'GET', `/v1/speech-to-text/${id}`)).body));
      return jobs.every((j) => j.status === 'queued' && j.error_code === 'waiting_for_network') ? jobs : undefined;
    });
    expect(waiting.every((j) => j.started_at === null && j.result === null)).toBe(true);
    const summary = await api<{ waiting: Record<string, number> }>(me.url, me.key, 'GET', '/v1/queue');
    expect(summary.body.waiting.waiting_for_network).toBe(5);
    expect(me.remote.view()).toMatchObject({ reachable: false });

    const back = await h.restart();
    expect(back.url).toBe(hostedUrl);
    const done = await waitFor('all 5 jobs to finish locally', async () => {
      const jobs = await Promise.all(ids.map(async (id) => (await api<Job>(me.url, me.key, 'GET', `/v1/speech-to-text/${id}`)).body));
      return jobs.every((j) => j.finished_at) ? jobs : undefined;
    }, scaled(180_000));
    expect(done.map((j) => j.status)).toEqual(Array(5).fill('succeeded'));
    for (const job of done) {
      expect(job.error_code).toBeNull();
      expect(job.result?.text?.length ?? 0).toBeGreaterThan(0);
    }
    const hostedJobs = await listJobs(hostedUrl, hostedKey);
    expect(hostedJobs).toHaveLength(5);
    expect(new Set(await Promise.all(done.map(async (j) => (await me.remote.jobsRepo.get(j.id))!.remote_job_id)))).toEqual(new Set(hostedJobs.map((j) => j.id)));
    expect(localLedger(back.service.db).filter((e) => e.kind === 'request_fee')).toHaveLength(5);
    expect(localLedger(me.db).filter((e) => e.kind === 'request_fee')).toHaveLength(5);
    expect(me.remote.view()).toMatchObject({ reachable: true });
  }, scaled(240_000));

  it('a batch sent while the hosted service is down stays pending (waiting_for_network, no job ids), then runs as one hosted batch', async () => {
    const h = await hostedThatRestarts();
    const { key: hostedKey, url: hostedUrl } = h.first;
    const me = await local(h.first);
    await stopHosted(h);

    const { status, body: batch } = await api<Batch>(me.url, me.key, 'POST', '/v1/speech-to-text/batch', audioForm('remote:test-asr', [JFK, JFK]));
    expect(status).toBe(200);
    const waiting = await waitFor('the items to wait for the network', async () => {
      const b = await getBatch(me.url, me.key, 'speech-to-text', batch.id);
      return b.files.every((f) => f.status === 'pending' && f.error_code === 'waiting_for_network') ? b : undefined;
    });
    expect(waiting).toMatchObject({ status: 'open', remaining: 2 });
    expect(waiting.files.map((f) => f.job_id)).toEqual([null, null]);

    await h.restart();
    const done = await waitFor('the batch to complete', async () => {
      const b = await getBatch(me.url, me.key, 'speech-to-text', batch.id);
      return b.status === 'complete' ? b : undefined;
    }, scaled(180_000));
    expect(done).toMatchObject({ succeeded: 2, failed: 0, remaining: 0 });
    expect((await api<{ data: Batch[] }>(hostedUrl, hostedKey, 'GET', '/v1/batches')).body.data).toHaveLength(1);
  }, scaled(240_000));

  it('survives the hosted service stopping during a held POST: one hosted job, finished after the restart', async () => {
    const h = await hostedThatRestarts();
    const { key: hostedKey, url: hostedUrl } = h.first;
    const me = await local(h.first);
    const { body: job } = await api<Job>(me.url, me.key, 'POST', '/v1/speech-to-text',
      audioForm('remote:test-asr', [JFK], { params: JSON.stringify({ behaviour: 'sleep', ms: 8000, seconds: 11 }) }));
    await waitFor('the hosted job to run', async () => (await listJobs(hostedUrl, hostedKey)).some((j) => j.status === 'running'));
    await stopHosted(h);
    await waitFor('the local job to wait for the network', async () => {
      const j = (await api<Job>(me.url, me.key, 'GET', `/v1/speech-to-text/${job.id}`)).body;
      return j.error_code === 'waiting_for_network';
    });
    await h.restart();
    const done = await waitFor('the local job to finish', async () => {
      const j = (await api<Job>(me.url, me.key, 'GET', `/v1/speech-to-text/${job.id}`)).body;
      return j.finished_at ? j : undefined;
    }, scaled(120_000));
    expect(done).toMatchObject({ status: 'succeeded', duration_seconds: '11.000' });
    const hostedJobs = await listJobs(hostedUrl, hostedKey);
    expect(hostedJobs).toHaveLength(1);
    expect(hostedJobs[0]!.status).toBe('succeeded');
    expect(localLedger(me.db).filter((e) => e.job_id === job.id).map((e) => e.kind).sort()).toEqual(['request_fee', 'usage']);
  }, scaled(240_000));

  it('keeps forwarding a local batch across a hosted restart in the middle of it', async () => {
    const h = await hostedThatRestarts();
    const { key: hostedKey, url: hostedUrl } = h.first;
    const me = await local(h.first);
    const form = audioForm('remote:test-asr', [JFK, JFK, JFK, JFK], { params: JSON.stringify({ behaviour: 'sleep', ms: 1500, seconds: 3 }) });
    const { status, body: batch } = await api<Batch>(me.url, me.key, 'POST', '/v1/speech-to-text/batch', form);
    expect(status).toBe(200);
    await waitFor('one item to succeed', async () => (await getBatch(me.url, me.key, 'speech-to-text', batch.id)).succeeded >= 1);
    await stopHosted(h);
    await waitFor('an item to wait for the network', async () =>
      (await getBatch(me.url, me.key, 'speech-to-text', batch.id)).files.some((f) => f.error_code === 'waiting_for_network'));
    await h.restart();
    const done = await waitFor('the batch to complete', async () => {
      const b = await getBatch(me.url, me.key, 'speech-to-text', batch.id);
      return b.status === 'complete' ? b : undefined;
    }, scaled(120_000));
    expect(done).toMatchObject({ succeeded: 4, failed: 0, remaining: 0 });
    expect(await listJobs(hostedUrl, hostedKey)).toHaveLength(4);
    expect((await api<{ data: Batch[] }>(hostedUrl, hostedKey, 'GET', '/v1/batches')).body.data).toHaveLength(1);
    expect(localLedger(h.current()!.service.db).filter((e) => e.kind === 'request_fee')).toHaveLength(1);
    const fees = localLedger(me.db).filter((e) => e.kind === 'request_fee');
    expect(fees).toHaveLength(1); // the local batch's single request fee
    expect(fees[0]!.batch_id).toBe(batch.id);
  }, scaled(240_000));
});
