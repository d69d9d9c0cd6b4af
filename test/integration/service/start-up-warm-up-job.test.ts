/**
 * The start-up warm-up jobs (service/start-up-warm-up-job.ts) run real text-to-speech jobs on a private job engine
 * and store, on the service's own worker: they leave nothing in the person's store, files, ledger, events or usage;
 * a job of the service always goes first; and they stop cleanly when the service closes. Every assertion holds
 * whatever the timing: where the order of start-up and a job is not fixed, each possible outcome is accepted and the
 * invariants (nothing left behind, the person's job served) are checked for all of them.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Batch, Job } from '../../../src-main/common/api-types.js';
import { ESPEAK_MODEL_ID } from '../../../src-main/engines/tts/espeak-models.js';
import type { JobEngine } from '../../../src-main/jobs/job-service.js';
import { ParamsValidator } from '../../../src-main/service/params/params-validator.js';
import { WARM_UP_JOB_ROUNDS, warmUpJobPath, type WarmUpJobOptions } from '../../../src-main/service/start-up-warm-up-job.js';
import { Client, json } from '../../helpers/http-client.js';
import { startTestService, type TestService } from '../../helpers/service.js';

let t: TestService;
let api: Client;
const started: TestService[] = [];
const validator = new ParamsValidator();

beforeAll(async () => {
  t = await startTestService({ holdSeconds: 60 });
  api = new Client(t.url, t.key);
  await t.service.warmUpJobs;
});

afterAll(async () => {
  await t?.stop();
  for (const other of started) await other.stop();
});

function engineOf(service: TestService): JobEngine {
  return service.service.jobs as JobEngine;
}

let byHand = 0;

/**
 * Options for a warm-up run by hand on a test service, as createService passes them, with a folder of its own (the
 * service's own warm-up owns `<data dir>/warm-up`).
 */
function options(service: TestService, signal: AbortSignal, patch: Partial<WarmUpJobOptions> = {}): WarmUpJobOptions {
  const s = service.service;
  return {
    folder: join(service.dataDir, `warm-up-by-hand-${++byHand}`),
    service: engineOf(service),
    resolveModel: (id) => s.catalogue.resolveForJobs(id),
    modelId: ESPEAK_MODEL_ID,
    params: (definition) => validator.validate(definition.id, definition.paramsSchema, {}),
    signal,
    ...patch,
  };
}

/** What the person's store holds: jobs, charges, usage of the local account, and the job folders. */
async function personsTraces(service: TestService, client: Client): Promise<{ jobs: string[]; ledger: string[]; usage: unknown; folders: string[] }> {
  const local = service.service.keys.ensureAccount('local');
  const jobs = await json<{ data: Job[] }>(client.get('/v1/jobs'));
  const usage = await json<{ data: unknown[] }>(client.get('/v1/usage'));
  const artifacts = join(service.dataDir, 'artifacts');
  return {
    jobs: jobs.data.map((j) => j.id),
    ledger: service.service.repos.ledger.forAccount(local).map((entry) => entry.job_id ?? ''),
    usage: usage.data,
    folders: existsSync(artifacts) ? readdirSync(artifacts) : [],
  };
}

describe('start-up warm-up jobs', () => {
  it('run on the service worker once it is ready and leave nothing in the person’s store or files', async () => {
    const result = await t.service.warmUpJobs;
    expect(result).toMatchObject({ jobs: WARM_UP_JOB_ROUNDS, stopped: null, detail: null });
    expect(result.folder).not.toBeNull();
    expect(result.folder).toBe(join(t.dataDir, 'warm-up'));
    expect(existsSync(result.folder!)).toBe(false);
    expect(await personsTraces(t, api)).toEqual({ jobs: [], ledger: [], usage: [], folders: [] });
    expect(existsSync(join(t.dataDir, 'logs', 'remote.log'))).toBe(false);
  });

  it('send no event of the service’s job engine and leave the worker as it was', async () => {
    const engine = engineOf(t);
    const events: string[] = [];
    const onJob = (job: Job): void => void events.push(job.id);
    const onBatch = (batch: Batch): void => void events.push(batch.id);
    engine.events.on('job-changed', onJob);
    engine.events.on('batch-changed', onBatch);
    const workersBefore = engine.workerStats();
    try {
      const result = await warmUpJobPath(options(t, new AbortController().signal, { rounds: 2 }));
      expect(result).toMatchObject({ jobs: 2, stopped: null });
      expect(existsSync(result.folder!)).toBe(false);
    } finally {
      engine.events.off('job-changed', onJob);
      engine.events.off('batch-changed', onBatch);
    }
    expect(events).toEqual([]);
    expect(engine.workerStats()).toMatchObject({ idle: workersBefore.size, started: workersBefore.started, pids: workersBefore.pids });
    expect(await personsTraces(t, api)).toEqual({ jobs: [], ledger: [], usage: [], folders: [] });
  });

  it('give the worker to a job of the service that arrives while they run: it is served, they stop', async () => {
    // Rounds and time enough that only the person's job can end the warm-up.
    const warmUp = warmUpJobPath(options(t, new AbortController().signal, { rounds: 100_000, timeoutMs: 600_000 }));
    const job = await json<Job>(api.postJson('/v1/text-to-speech', { model: ESPEAK_MODEL_ID, text: 'Hello there.' }));
    expect(job).toMatchObject({ status: 'succeeded', model_id: ESPEAK_MODEL_ID });
    const result = await warmUp;
    expect(result).toMatchObject({ stopped: 'real-job', detail: null });
    expect(existsSync(result.folder!)).toBe(false);
    const traces = await personsTraces(t, api);
    expect(traces.jobs).toEqual([job.id]);
    expect(new Set(traces.ledger)).toEqual(new Set([job.id]));
    expect(traces.folders).toEqual([job.id]);
  });

  it('do not start while the service has a job of its own', async () => {
    const other = await startTestService({ holdSeconds: 0 });
    started.push(other);
    const client = new Client(other.url, other.key);
    // A job of the test engine that sleeps: it holds the worker until the warm-up has looked.
    const created = await json<Job>(client.postJson('/v1/text-to-speech', { model: 'test-tts', text: 'Hi.', params: { behaviour: 'sleep', ms: 60_000 } }));
    // What a warm-up killed mid-way would have left in its folder: removed even though this one does not run.
    const leftover = options(other, new AbortController().signal);
    mkdirSync(leftover.folder, { recursive: true });
    writeFileSync(join(leftover.folder, 'speech.wav'), 'left by a killed warm-up');
    const result = await warmUpJobPath(leftover);
    expect(result).toMatchObject({ jobs: 0, stopped: 'real-job', folder: null });
    expect(existsSync(leftover.folder)).toBe(false);
    await json<Job>(client.post(`/v1/text-to-speech/${created.id}/cancel`));
    // Whatever the service's own warm-up did (it ran before the job came, or gave way to it), it left nothing.
    const own = await other.service.warmUpJobs;
    if (own.folder) expect(existsSync(own.folder)).toBe(false);
    expect((await personsTraces(other, client)).jobs).toEqual([created.id]);
  });

  it('stop cleanly when the service closes, whenever that happens', async () => {
    const closing = new AbortController();
    const engine = engineOf(t);
    const workers = engine.workerStats();
    const warmUp = warmUpJobPath(options(t, closing.signal, { rounds: 100_000, timeoutMs: 600_000 }));
    // Closed at some point of a job's path (created, claimed, running or settling): each is an accepted timing.
    await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 40)));
    closing.abort();
    const result = await warmUp;
    expect(result).toMatchObject({ stopped: 'closing', detail: null });
    expect(existsSync(result.folder!)).toBe(false);
    // The service's worker was not stopped or killed by the warm-up's job engine, and serves the next job.
    expect(engine.workerStats()).toMatchObject({ started: workers.started, pids: workers.pids });
    const job = await json<Job>(api.postJson('/v1/text-to-speech', { model: ESPEAK_MODEL_ID, text: 'Still here.' }));
    expect(job.status).toBe('succeeded');
  });

  it('end with the service: a service closed at once closes cleanly and its warm-up leaves nothing', async () => {
    const other = await startTestService({ holdSeconds: 60 });
    const closed = other.stop();
    const result = await other.service.warmUpJobs;
    await closed;
    // Closed before the workers were ready (the usual case: nothing started), during the warm-up, or after it.
    expect(['closing', null]).toContain(result.stopped);
    expect(result.detail).toBeNull();
    if (result.folder) expect(existsSync(result.folder)).toBe(false);
  });
});
