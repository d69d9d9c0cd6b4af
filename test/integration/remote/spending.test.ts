/**
 * Money across two real services on loopback (issue 17): a local service forwarding to a hosted one whose operator
 * prices its test voice at $0.05 a request. The local spending cap holds the next hosted job (queued, its reason
 * given) and releases it when raised, across a restart of the local service; the local usage report equals the
 * local ledger to the micro-dollar over a mixed run (on-device, hosted, batches, a cancelled job retried, an
 * Idempotency-Key replayed); and its hosted part equals the hosted service's own GET /v1/usage.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Batch, BudgetSettings, Job, UsageReport } from '../../../src-main/common/api-types.js';
import type { TestService } from '../../helpers/service.js';
import { startForwardingTo, type LocalInstance } from '../../helpers/local-instance.js';
import { JFK, api, audioForm, getBatch, localLedger, startHosted, waitFor, waitForJob } from '../../helpers/two-instances.js';
import { scaled } from '../../helpers/time-scale.js';

let hosted: TestService;
let local: LocalInstance;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-spending-'));
  const pricingFile = join(dir, 'hosted-pricing.json');
  writeFileSync(pricingFile, JSON.stringify({ models: { 'test-tts': { request_fee_usd: 0.05, per_minute_usd: 0 } } }));
  hosted = await startHosted({ holdSeconds: 8, pricingFile });
  local = await startForwardingTo(hosted, { holdSeconds: 2, dataDir: join(dir, 'local') });
}, scaled(120_000));

afterAll(async () => {
  await local?.stop();
  await hosted?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function speak(text: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<Job> {
  const { status, body } = await api<Job>(local.url, local.key, 'POST', '/v1/text-to-speech', { model: 'remote:test-tts', text, ...extra }, headers);
  expect(status, JSON.stringify(body)).toBe(200);
  return body;
}

const usage = async (base: string, key: string, query = ''): Promise<UsageReport> => (await api<UsageReport>(base, key, 'GET', `/v1/usage${query}`)).body;
const budget = async (): Promise<BudgetSettings> => (await api<BudgetSettings>(local.url, local.key, 'GET', '/v1/settings/budget')).body;
const ledgerMicro = (rows: { amount_usd_micro: number }[]): number => rows.reduce((s, r) => s + r.amount_usd_micro, 0);

describe('a spending cap on hosted work', () => {
  it('$0.12 a month at $0.05 a request: two run, the third waits through a restart until the cap is raised', async () => {
    const set = await api<BudgetSettings>(local.url, local.key, 'PUT', '/v1/settings/budget', { monthly_usd: 0.12 });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ monthly_usd: 0.12, spent_usd: 0, remaining_usd: 0.12, currency: 'USD' });

    const first = await speak('One.');
    const second = await speak('Two.');
    for (const job of [first, second]) expect((job.finished_at ? job : await waitForJob(local.url, local.key, 'text-to-speech', job.id)).status).toBe('succeeded');
    const third = await speak('Three.');
    const held = await waitFor('the third to wait for the budget', async () => {
      const job = (await api<Job>(local.url, local.key, 'GET', `/v1/text-to-speech/${third.id}`)).body;
      return job.error_code === 'waiting_for_budget' && job;
    });
    expect(held).toMatchObject({ status: 'queued', started_at: null });
    expect(held.error_message).toMatch(/\$0\.05 would pass the monthly cap.*\$0\.02 left/);
    expect(await budget()).toMatchObject({ spent_usd: 0.1, reserved_usd: 0, remaining_usd: 0.02, waiting: 1 });
    // Nothing reached the hosted service for it.
    expect(await local.remote.jobsRepo.get(third.id)).toBeUndefined();

    // The local service restarts: the job is still there, still waiting.
    await local.stop(false);
    local = await startForwardingTo(hosted, { holdSeconds: 2, dataDir: join(dir, 'local') });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await api<Job>(local.url, local.key, 'GET', `/v1/text-to-speech/${third.id}`)).body).toMatchObject({ status: 'queued', error_code: 'waiting_for_budget' });

    expect((await api<BudgetSettings>(local.url, local.key, 'PUT', '/v1/settings/budget', { monthly_usd: 1 })).body.monthly_usd).toBe(1);
    expect((await waitForJob(local.url, local.key, 'text-to-speech', third.id)).status).toBe('succeeded');
    expect(await budget()).toMatchObject({ spent_usd: 0.15, reserved_usd: 0, remaining_usd: 0.85, waiting: 0 });
  }, scaled(240_000));
});

describe('usage equals the ledger, here and on the hosted service', () => {
  it('over a mixed run: on-device and hosted jobs, batches, a retried job and a replayed request', async () => {
    await api(local.url, local.key, 'PUT', '/v1/settings/budget', { monthly_usd: null });
    // On-device (the local test engine, $0.05 + $0.006/min), one with diarization ($0.002/min more).
    const onDevice = await api<Job>(local.url, local.key, 'POST', '/v1/speech-to-text', audioForm('test-asr', [JFK], { params: '{"seconds": 61.5, "speaker_diarization": true}' }));
    // A hosted job replayed with the same Idempotency-Key: one job, one charge.
    const replayed = await speak('Replayed.', { params: { seconds: 2 } }, { 'idempotency-key': 'money-replay' });
    expect((await speak('Replayed.', { params: { seconds: 2 } }, { 'idempotency-key': 'money-replay' })).id).toBe(replayed.id);
    // A hosted job cancelled while queued, then retried.
    await api(local.url, local.key, 'PUT', '/v1/settings/budget', { monthly_usd: 0 });
    const cancelled = await speak('Cancelled first.');
    await waitFor('it to wait', async () => (await api<Job>(local.url, local.key, 'GET', `/v1/text-to-speech/${cancelled.id}`)).body.error_code === 'waiting_for_budget');
    await api(local.url, local.key, 'POST', `/v1/text-to-speech/${cancelled.id}/cancel`);
    await api(local.url, local.key, 'PUT', '/v1/settings/budget', { monthly_usd: null });
    const retried = (await api<Job>(local.url, local.key, 'POST', `/v1/text-to-speech/${cancelled.id}/retry`)).body;
    // A hosted batch (one hosted batch: one fee on each side) and an on-device batch.
    const hostedBatch = (await api<Batch>(local.url, local.key, 'POST', '/v1/text-to-speech/batch', { model: 'remote:test-tts', params: { seconds: 3 }, items: [{ text: 'A.' }, { text: 'B.' }] })).body;
    const localBatch = (await api<Batch>(local.url, local.key, 'POST', '/v1/speech-to-text/batch', audioForm('test-asr', [JFK, JFK], { params: '{"seconds": 30}' }))).body;
    for (const job of [replayed, retried]) expect((await waitForJob(local.url, local.key, 'text-to-speech', job.id)).status).toBe('succeeded');
    expect((await waitForJob(local.url, local.key, 'speech-to-text', onDevice.body.id)).status).toBe('succeeded');
    for (const [product, id] of [['text-to-speech', hostedBatch.id], ['speech-to-text', localBatch.id]] as const) {
      await waitFor(`batch ${id}`, async () => (await getBatch(local.url, local.key, product, id)).status === 'complete', scaled(120_000));
    }

    const rows = localLedger(local.db);
    const report = await usage(local.url, local.key);
    expect(report.total_usd_micro).toBe(ledgerMicro(rows));
    expect(report.total_usd).toBe(ledgerMicro(rows) / 1e6);
    expect(report.hosted.total_usd).toBe(ledgerMicro(rows.filter((r) => r.provider === 'remote')) / 1e6);
    expect(report.on_device.total_usd).toBe(ledgerMicro(rows.filter((r) => r.provider === 'local')) / 1e6);
    expect(report.options_usd).toBe(ledgerMicro(rows.filter((r) => r.kind === 'option')) / 1e6);
    expect(report.requests).toBe(rows.filter((r) => r.kind === 'request_fee').length);
    for (const groupBy of ['day', 'model', 'product']) {
      const grouped = await usage(local.url, local.key, `?group_by=${groupBy}`);
      expect(grouped.total_usd_micro).toBe(report.total_usd_micro);
      expect(Math.round(grouped.data.reduce((s, g) => s + g.total_usd, 0) * 1e6)).toBe(report.total_usd_micro);
    }
    const byModel = await usage(local.url, local.key, '?group_by=model');
    expect(byModel.data.find((g) => g.key === 'remote:test-tts')).toMatchObject({ hosted_usd: byModel.data.find((g) => g.key === 'remote:test-tts')!.total_usd, on_device_usd: 0 });
    expect(byModel.data.find((g) => g.key === 'test-asr')!.options_usd).toBeGreaterThan(0);

    // The hosted service's own report for the same key: every hosted charge, to the micro-dollar.
    const theirs = await usage(hosted.url, hosted.key);
    expect(Math.round(theirs.total_usd * 1e6)).toBe(Math.round(report.hosted.total_usd * 1e6));
    expect(theirs.total_usd_micro).toBe(ledgerMicro(localLedger(hosted.service.db)));
    expect(theirs.requests).toBe(report.hosted.requests);
    expect(theirs.hosted.total_usd).toBe(0); // on the hosted service, its own engines did the work
  }, scaled(300_000));
});
