import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, terminal, whenJob, type Harness } from '../harness.js';
import { scaled } from '../../../helpers/time-scale.js';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

describe('job service with real worker processes', () => {
  it('runs a job to success with an artifact, progress and a charge', async () => {
    h = createHarness({ publicBaseUrl: () => 'http://127.0.0.1:4321' });
    await h.service.start();
    const { job, replayed } = await h.service.createJob(h.job({ behaviour: 'succeed', artifact: true, seconds: 11 }));
    expect(replayed).toBe(false);
    expect(job.status).toBe('queued');
    expect(job.id).toMatch(/^job_[0-9a-z]{10}[0-9A-Za-z]{14}$/);
    const done = await terminal(h.service, h.accountId, job.id);
    expect(done.status).toBe('succeeded');
    expect(done.progress).toBe(1);
    expect(done.duration_seconds).toBe('11.000');
    expect(done.started_at).not.toBeNull();
    expect(done.finished_at).not.toBeNull();
    expect(done.error_code).toBeNull();
    expect(done.result?.text).toBe(`test ${job.id}`);
    const artifact = done.result?.artifacts?.[0];
    expect(artifact?.url).toMatch(/^http:\/\/127\.0\.0\.1:4321\/v1\/artifacts\/[A-Za-z0-9_-]{43}\/output\.wav$/);
    expect(artifact?.content_type).toBe('audio/wav');
    expect(artifact?.sample_rate).toBe(16000);
    const token = artifact!.url.split('/')[5]!;
    const found = await h.service.findArtifact(token);
    expect(found?.expired).toBe(false);
    expect(readFileSync(found!.path).subarray(0, 4).toString()).toBe('RIFF');
    expect(await h.service.findArtifact('nope')).toBeUndefined();
    expect((await h.service.ledgerFor(h.accountId)).map((e) => e.kind)).toEqual(['request_fee', 'usage']);
  });

  it('reports progress from a sleeping engine and cancels a running job', async () => {
    h = createHarness();
    await h.service.start();
    const { job } = await h.service.createJob(h.job({ behaviour: 'sleep', ms: 20_000 }));
    await whenJob(h.service, job.id, (j) => (j.progress ?? 0) > 0);
    const cancelled = await h.service.cancelJob(h.accountId, 'speech-to-text', job.id);
    expect(cancelled?.status).toBe('running');
    const done = await terminal(h.service, h.accountId, job.id, scaled(10_000));
    expect(done.status).toBe('cancelled');
    expect(done.error_code).toBe('cancelled');
    expect(await h.service.ledgerFor(h.accountId)).toEqual([]);
    // The engine honoured the cancel: its worker was not killed (no process beyond the pool's own was started).
    expect(h.service.workerStats().started).toBe(h.service.workerStats().size);
  });

  it('starts its workers with the service, before any job arrives', async () => {
    h = createHarness({ workers: 2 });
    expect(h.service.workerStats().pids).toEqual([]);
    await h.service.start();
    await h.service.workersReady();
    expect(h.service.workerStats()).toMatchObject({ size: 2, idle: 2, started: 2 });
    expect(h.service.workerStats().pids).toHaveLength(2);
    const { job } = await h.service.createJob(h.job({ behaviour: 'succeed' }));
    expect((await terminal(h.service, h.accountId, job.id)).status).toBe('succeeded');
    expect(h.service.workerStats().started).toBe(2); // the job ran on a started worker, none was added for it
  });

  it('fails a job with the engine error code', async () => {
    h = createHarness();
    await h.service.start();
    const { job } = await h.service.createJob(h.job({ behaviour: 'fail', code: 'audio_decode_failed', message: 'bad file' }));
    const done = await terminal(h.service, h.accountId, job.id);
    expect(done).toMatchObject({ status: 'failed', error_code: 'audio_decode_failed', error_message: 'bad file', result: null });
    expect(existsSync(h.dir)).toBe(true);
  });
});

describe('test engines are off unless asked for', () => {
  it('a worker without VOXDESK_TEST_ENGINES=1 refuses the test engine', async () => {
    const env = { ...process.env };
    delete env.VOXDESK_TEST_ENGINES;
    h = createHarness({ workerEnv: env });
    await h.service.start();
    const { job } = await h.service.createJob(h.job({ behaviour: 'succeed' }));
    expect(await terminal(h.service, h.accountId, job.id)).toMatchObject({
      status: 'failed',
      error_code: 'engine_failed',
      error_message: 'test engines are disabled',
    });
  });
});
