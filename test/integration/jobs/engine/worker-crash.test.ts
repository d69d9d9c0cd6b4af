import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, terminal, whenJob, type Harness } from '../harness.js';
import { scaled } from '../../../helpers/time-scale.js';
import { logInto } from '../../../helpers/log.js';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

describe('worker log lines', () => {
  it("an engine's line reaches the service's log with its worker and job", async () => {
    const lines: string[] = [];
    h = createHarness({ workers: 1, log: logInto(lines) });
    await h.service.start();
    const job = (await h.service.createJob(h.job({ behaviour: 'succeed', log: 'decoded 3 segments' }))).job;
    expect((await terminal(h.service, h.accountId, job.id)).status).toBe('succeeded');
    expect(lines).toContain(`worker 0: ${job.id}: decoded 3 segments`);
    expect(lines.some((line) => /^worker 0: started pid \d+$/.test(line))).toBe(true);
  });
});

describe('worker crashes fail only their job', () => {
  for (const behaviour of ['crash', 'exit'] as const) {
    it(`${behaviour}: retried once, then engine_crashed; the worker restarts and other jobs succeed`, async () => {
      const lines: string[] = [];
      h = createHarness({ workers: 2, log: logInto(lines) });
      await h.service.start();
      const sleeper = (await h.service.createJob(h.job({ behaviour: 'sleep', ms: 1500 }))).job;
      const bad = (await h.service.createJob(h.job({ behaviour }))).job;
      const requeued = whenJob(h.service, bad.id, (j) => j.status === 'queued');
      const crashed = await terminal(h.service, h.accountId, bad.id);
      await requeued; // the first crash put it back in the queue
      expect(crashed.status).toBe('failed');
      expect(crashed.error_code).toBe('engine_crashed');
      expect(crashed.error_message).toMatch(behaviour === 'crash' ? /signal SIGSEGV/ : /exited with code 255/);
      expect(h.repos.jobs.get(bad.id)?.attempts).toBe(2);
      const survivor = await terminal(h.service, h.accountId, sleeper.id);
      expect(survivor.status).toBe('succeeded');
      // Later work runs on the restarted worker.
      const after = (await h.service.createJob(h.job({ behaviour: 'succeed' }))).job;
      expect((await terminal(h.service, h.accountId, after.id)).status).toBe('succeeded');
      expect(h.service.workerStats().started).toBeGreaterThanOrEqual(3);
      expect((await h.service.ledgerFor(h.accountId)).filter((e) => e.job_id === bad.id)).toEqual([]);
      // The worker's fate is in the service's log.
      expect(lines.join('\n')).toMatch(behaviour === 'crash' ? /worker \d: the worker process was killed by signal SIGSEGV/ : /worker \d: the worker process exited with code 255/);
    });
  }

  it('hang + cancel: the worker is killed after the grace and the job ends cancelled', async () => {
    h = createHarness({ workers: 1, cancelGraceMs: 500 });
    await h.service.start();
    const { job } = await h.service.createJob(h.job({ behaviour: 'hang' }));
    const running = await whenJob(h.service, job.id, (j) => j.status === 'running');
    expect(running.progress).toBeNull(); // unknown until the engine tells
    await h.service.cancelJob(h.accountId, 'speech-to-text', job.id);
    const done = await terminal(h.service, h.accountId, job.id, scaled(10_000));
    expect(done).toMatchObject({ status: 'cancelled', error_code: 'cancelled' });
    const next = (await h.service.createJob(h.job({ behaviour: 'succeed' }))).job;
    expect((await terminal(h.service, h.accountId, next.id)).status).toBe('succeeded');
  });

  it('an engine running past runTimeoutSeconds is killed: engine_timeout', async () => {
    h = createHarness({ workers: 1, runTimeoutSeconds: 1 });
    await h.service.start();
    const { job } = await h.service.createJob(h.job({ behaviour: 'hang' }));
    const done = await terminal(h.service, h.accountId, job.id, scaled(15_000));
    expect(done).toMatchObject({ status: 'failed', error_code: 'engine_timeout' });
  });
});
