/**
 * A cancel, then a SIGKILL of the engine worker, in the middle of a voice-cloning job (as a native crash in sherpa-onnx would): the
 * pool starts a new worker, the job runs again from the start (its reference is still on disk: the upload belongs to
 * the job until it ends), and it finishes with one whole artifact and one charge. The job transcribes its reference
 * with PocketSphinx first, which keeps it running long enough to be cancelled or killed on a busy machine. A cancelled
 * job ends cancelled with nothing charged and no artifact.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../../../src-main/common/api-types.js';
import { isTerminal } from '../../../../src-main/common/job-states.js';
import { decodeWav } from '../../../../src-main/engines/audio/wav.js';
import type { JobEngine } from '../../../../src-main/jobs/engine/job-service.js';
import { generatedModel, PRODUCT_MODELS_SCRIPT } from '../../../helpers/generated-models.js';
import { Client, json } from '../../../helpers/http-client.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { requireCommand, SHARED } from '../../../helpers/system.js';
import { scaled } from '../../../helpers/time-scale.js';
import { until } from '../../../helpers/wait.js';

requireCommand('pocketsphinx_continuous', 'pocketsphinx');

const MODEL = 'tiny-zipvoice';
const PRICE = { request_fee_usd: 0.01, per_minute_usd: 0.06, options: {} };

let svc: TestService;
let api: Client;
let pricingDir: string;

beforeAll(async () => {
  pricingDir = mkdtempSync(join(tmpdir(), 'voxdesk-clone-kill-'));
  const pricingFile = join(pricingDir, 'pricing.json');
  writeFileSync(pricingFile, JSON.stringify({ models: { [MODEL]: PRICE } }));
  svc = await startTestService({ holdSeconds: 0, workers: 1, pricingFile });
  api = new Client(svc.url, svc.key);
  const r = await api.postJson('/v1/local/models/import', { path: generatedModel('zipvoice-distill', PRODUCT_MODELS_SCRIPT), id: MODEL });
  expect(r.status, await r.clone().text()).toBe(202);
  await svc.service.models.whenImported(MODEL);
}, scaled(120_000));
afterAll(async () => {
  await svc?.stop();
  rmSync(pricingDir, { recursive: true, force: true });
});

const workers = (): ReturnType<JobEngine['workerStats']> => (svc.service.jobs as JobEngine).workerStats();

/** This file's waits (helpers/wait.ts): long enough for a killed service to start again, read often enough to catch a short state. */
const WAIT = { timeoutMs: scaled(400_000), everyMs: 20 };

function cloneJfk(): Array<{ name: string; value?: string; file?: { name: string; data: Uint8Array<ArrayBuffer> } }> {
  return [
    { name: 'model', value: MODEL },
    { name: 'reference_audio', file: { name: 'jfk.wav', data: new Uint8Array(readFileSync(join(SHARED, 'audio/jfk.wav'))) } },
    { name: 'text', value: 'Ask not what your country can do for you. Ask what you can do for your country.' },
  ];
}

const ledgerOf = (jobId: string) => svc.service.repos.ledger.forAccount(svc.service.repos.accounts.findKey(svc.key)!.account.id).filter((row) => row.job_id === jobId);

describe('a cancel during a voice-cloning job', () => {
  it('ends the job cancelled, with no artifact and nothing charged', { timeout: scaled(300_000) }, async () => {
    const created = await json<Job>(api.postForm('/v1/voice-cloning', cloneJfk()));
    await until('the job to run', () => json<Job>(api.get(`/v1/voice-cloning/${created.id}`)), (j) => j.status === 'running', WAIT);
    await json<Job>(api.post(`/v1/voice-cloning/${created.id}/cancel`));
    const done = await until('the job to end', () => json<Job>(api.get(`/v1/voice-cloning/${created.id}`)), (j) => isTerminal(j.status), WAIT);
    expect(done.status, JSON.stringify(done)).toBe('cancelled');
    expect(done.result?.artifacts ?? []).toEqual([]);
    expect(ledgerOf(created.id).reduce((s, row) => s + row.amount_usd_micro, 0)).toBe(0);
  });
});

describe('a SIGKILL of the worker during a voice-cloning job', () => {
  it('runs the job again in a new worker; it succeeds with one whole artifact and is charged once', { timeout: scaled(600_000) }, async () => {
    const created = await json<Job>(api.postForm('/v1/voice-cloning', cloneJfk()));
    const startedBefore = workers().started;
    await until('the job to run', () => json<Job>(api.get(`/v1/voice-cloning/${created.id}`)), (j) => j.status === 'running', WAIT);
    const [worker] = workers().pids;
    expect(worker).toBeDefined();
    process.kill(worker!, 'SIGKILL');

    const done = await until('the job to end', () => json<Job>(api.get(`/v1/voice-cloning/${created.id}`)), (j) => isTerminal(j.status), WAIT);
    expect(done.status, JSON.stringify(done)).toBe('succeeded');
    expect(workers().started).toBeGreaterThan(startedBefore);
    expect(done.result).toMatchObject({ synthetic: true });
    const artifacts = done.result!.artifacts!;
    expect(artifacts).toHaveLength(1);
    const r = await fetch(artifacts[0]!.url.startsWith('http') ? artifacts[0]!.url : svc.url + artifacts[0]!.url);
    const wav = decodeWav(new Uint8Array(await r.arrayBuffer()));
    expect(wav.channels[0]!.length / 24000).toBeCloseTo(Number(done.duration_seconds), 2);

    const rows = ledgerOf(created.id);
    expect(rows.filter((row) => row.kind === 'usage')).toHaveLength(1);
    const seconds = Number(done.duration_seconds);
    expect(rows.reduce((s, row) => s + row.amount_usd_micro, 0)).toBe(Math.round(PRICE.request_fee_usd * 1e6) + Math.round((seconds / 60) * PRICE.per_minute_usd * 1e6));
  });
});
