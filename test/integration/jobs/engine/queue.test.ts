import { afterEach, describe, expect, it } from 'vitest';
import { JobError } from '../../../../src-main/common/errors.js';
import { createHarness, terminal, until, whenJob, type Harness } from '../harness.js';
import { scaled } from '../../../helpers/time-scale.js';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

describe('queue', () => {
  it('waiting_for_capacity is set while all workers are busy and cleared when the job starts', async () => {
    h = createHarness({ workers: 1 });
    await h.service.start();
    const first = (await h.service.createJob(h.job({ behaviour: 'sleep', ms: 1000 }))).job;
    const second = (await h.service.createJob(h.job({ behaviour: 'succeed' }))).job;
    const waiting = await whenJob(h.service, second.id, (j) => j.error_code === 'waiting_for_capacity');
    expect(waiting.status).toBe('queued');
    expect(waiting.started_at).toBeNull();
    expect(await h.service.queueSummary(h.accountId)).toEqual({ queued: 1, running: 1, pending: 0, waiting: { waiting_for_capacity: 1 } });
    const running = await whenJob(h.service, second.id, (j) => j.status === 'running');
    expect(running.error_code).toBeNull();
    expect(running.error_message).toBeNull();
    expect((await terminal(h.service, h.accountId, first.id)).status).toBe('succeeded');
    expect((await terminal(h.service, h.accountId, second.id)).status).toBe('succeeded');
  });

  it('a run whose model is still being fetched holds its worker: a job sent meanwhile waits instead of being claimed', async () => {
    // A cluster node fetches a model's files from storage before its first job runs (engine-parts.ts prepareModel).
    let release!: () => void;
    const fetched = new Promise<void>((resolve) => (release = resolve));
    let fetching = 0;
    h = createHarness({ workers: 1, warmEngines: [], prepareModel: async () => { fetching++; await fetched; } });
    await h.service.start();
    const first = (await h.service.createJob(h.job({ behaviour: 'succeed' }))).job;
    await until('the first job to fetch its model', () => fetching === 1);
    const second = (await h.service.createJob(h.job({ behaviour: 'succeed' }))).job;
    const waiting = await whenJob(h.service, second.id, (j) => j.error_code === 'waiting_for_capacity');
    expect(waiting.status).toBe('queued');
    expect(fetching).toBe(1);
    release();
    for (const id of [first.id, second.id]) expect(await terminal(h.service, h.accountId, id)).toMatchObject({ status: 'succeeded', error_code: null });
  });

  it('jobs of a model being downloaded wait with waiting_for_model, then run', async () => {
    h = createHarness();
    h.models.set('test-free', { ...h.models.get('test-free')!, downloading: true, status: 'unavailable', reason: 'downloading' });
    await h.service.start();
    const { job } = await h.service.createJob(h.job({ behaviour: 'succeed' }));
    await whenJob(h.service, job.id, (j) => j.error_code === 'waiting_for_model');
    h.models.set('test-free', { ...h.models.get('test-free')!, downloading: false, status: 'available', reason: null });
    expect((await terminal(h.service, h.accountId, job.id)).status).toBe('succeeded');
  });

  it('a model unavailable at run time fails model_unavailable; remote without a runner too', async () => {
    h = createHarness();
    h.models.set('gone', { ...h.models.get('test-free')!, id: 'gone', status: 'unavailable', reason: 'not downloaded' });
    h.models.set('hosted', { ...h.models.get('test-free')!, id: 'hosted', engine: 'remote', provider: 'remote' });
    await h.service.start();
    const a = (await h.service.createJob(h.job({}, { modelId: 'gone' }))).job;
    const b = (await h.service.createJob(h.job({}, { modelId: 'hosted' }))).job;
    expect(await terminal(h.service, h.accountId, a.id)).toMatchObject({ status: 'failed', error_code: 'model_unavailable' });
    expect(await terminal(h.service, h.accountId, b.id)).toMatchObject({ status: 'failed', error_code: 'model_unavailable' });
    await expect(h.service.createJob(h.job({}, { modelId: 'unknown' }))).rejects.toThrow(/not in the catalogue/);
  });

  it('a job whose model this node does not know yet runs once a look finds it (imported through another node); one the look does not find fails', async () => {
    // Jobs taken by a node that knows their model, run by one whose catalogue has not seen it: here one service, whose
    // catalogue answers each of the two models once (the intake's check), then not until a look finds it.
    const answersLeft = new Map([['late', 1], ['never', 1]]);
    const found = new Set<string>();
    let looks = 0;
    h = createHarness({
      resolveModel: (id) => {
        const left = answersLeft.get(id);
        if (left === undefined || found.has(id)) return h.models.get(id);
        answersLeft.set(id, left - 1);
        return left > 0 ? h.models.get(id) : undefined;
      },
      refreshModels: async () => {
        looks += 1;
        found.add('late'); // what the other node committed, found by this look
      },
    });
    h.models.set('late', { ...h.models.get('test-free')!, id: 'late' });
    h.models.set('never', { ...h.models.get('test-free')!, id: 'never' });
    await h.service.start();
    const late = (await h.service.createJob(h.job({ behaviour: 'succeed' }, { modelId: 'late' }))).job;
    expect((await terminal(h.service, h.accountId, late.id)).status).toBe('succeeded');
    expect(looks).toBeGreaterThanOrEqual(1);
    const never = (await h.service.createJob(h.job({ behaviour: 'succeed' }, { modelId: 'never' }))).job;
    expect(await terminal(h.service, h.accountId, never.id)).toMatchObject({ status: 'failed', error_code: 'model_unavailable' });
  });

  it('a queued job past its deadline expires (timer/maintenance and claim time)', async () => {
    let now = Date.parse('2026-01-01T00:00:00.000Z');
    h = createHarness({ clock: () => new Date(now), queueWindowSeconds: 60 });
    h.models.set('test-free', { ...h.models.get('test-free')!, downloading: true });
    await h.service.start();
    const { job } = await h.service.createJob(h.job({ behaviour: 'succeed' }));
    await whenJob(h.service, job.id, (j) => j.error_code === 'waiting_for_model');
    now += 61_000;
    await h.service.runMaintenance();
    const expired = (await h.service.getJob(h.accountId, 'speech-to-text', job.id))!;
    expect(expired).toMatchObject({ status: 'expired', error_code: 'expired', started_at: null });
    expect(expired.finished_at).toBe('2026-01-01T00:01:01.000Z');
    expect(await h.service.ledgerFor(h.accountId)).toEqual([]);
  });

  it('a remote runner runs remote models and can send a job back to wait for the network', async () => {
    let online = false;
    let calls = 0;
    h = createHarness({
      runners: {
        remote: {
          readiness: () => (online ? null : 'waiting_for_network'),
          async run(task, ctx) {
            calls++;
            ctx.measured(30);
            return { result: { text: `remote ${task.jobId}` }, artifacts: [], durationSeconds: 30 };
          },
        },
      },
    });
    h.models.set('hosted', { ...h.models.get('test-free')!, id: 'hosted', engine: 'remote', provider: 'remote' });
    await h.service.start();
    const { job } = await h.service.createJob(h.job({}, { modelId: 'hosted' }));
    await whenJob(h.service, job.id, (j) => j.error_code === 'waiting_for_network');
    online = true;
    const done = await terminal(h.service, h.accountId, job.id);
    expect(done).toMatchObject({ status: 'succeeded', duration_seconds: '30.000', result: { text: `remote ${job.id}` } });
    expect(calls).toBe(1);
  });

  it('lists newest first with an opaque cursor; a bad cursor is refused', async () => {
    h = createHarness();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await h.service.createJob(h.job({}))).job.id);
    const first = await h.service.listJobs(h.accountId, { limit: 2 });
    expect(first.data.map((j) => j.id)).toEqual([ids[4], ids[3]]);
    const second = await h.service.listJobs(h.accountId, { limit: 2, cursor: first.next_cursor });
    expect(second.data.map((j) => j.id)).toEqual([ids[2], ids[1]]);
    const third = await h.service.listJobs(h.accountId, { limit: 2, cursor: second.next_cursor });
    expect(third.data.map((j) => j.id)).toEqual([ids[0]]);
    expect(third.next_cursor).toBeNull();
    await expect(h.service.listJobs(h.accountId, { cursor: 'garbage' })).rejects.toThrow(/cursor/);
    await expect(h.service.listJobs(h.accountId, { limit: 0 })).rejects.toThrow(/limit/);
    expect((await h.service.listJobs('acc_other', {})).data).toEqual([]);
    expect(await h.service.getJob('acc_other', 'speech-to-text', ids[0]!)).toBeUndefined();
    expect(await h.service.getJob(h.accountId, 'text-to-speech', ids[0]!)).toBeUndefined();
  });

  it('retryJob makes a new job from a failed one and refuses others', async () => {
    h = createHarness();
    await h.service.start();
    const failed = (await h.service.createJob(h.job({ behaviour: 'fail' }))).job;
    await terminal(h.service, h.accountId, failed.id);
    const retried = (await h.service.retryJob(h.accountId, 'speech-to-text', failed.id))!;
    expect(retried.id).not.toBe(failed.id);
    expect(retried.status).toBe('queued');
    const ok = (await h.service.createJob(h.job({ behaviour: 'succeed' }))).job;
    await terminal(h.service, h.accountId, ok.id);
    await expect(h.service.retryJob(h.accountId, 'speech-to-text', ok.id)).rejects.toThrow(/only failed/);
    expect(await h.service.retryJob(h.accountId, 'speech-to-text', 'job_missing')).toBeUndefined();
  });

  it('shutdown requeues what still runs, and a fresh service finishes it', async () => {
    h = createHarness({ workers: 1 });
    await h.service.start();
    const { job } = await h.service.createJob(h.job({ behaviour: 'sleep', ms: 30_000 }));
    await whenJob(h.service, job.id, (j) => j.status === 'running');
    await h.service.shutdown(200);
    const row = h.repos.jobs.get(job.id)!;
    expect(row).toMatchObject({ status: 'queued', started_at: null, claimed_by: null, attempts: 0 });
    const again = h.newService();
    await again.start();
    const restarted = await whenJob(again, job.id, (j) => j.status === 'running');
    expect(restarted.status).toBe('running');
    await again.cancelJob(h.accountId, 'speech-to-text', job.id);
    expect((await terminal(again, h.accountId, job.id)).status).toBe('cancelled');
  });
});

describe('inputs and waiting', () => {
  it('waitForTerminal resolves on timeout, on abort, and at once for unknown or finished jobs', async () => {
    h = createHarness();
    const { job } = await h.service.createJob(h.job({ behaviour: 'succeed' })); // not started: stays queued
    await h.service.waitForTerminal(job.id, 50);
    const controller = new AbortController();
    const waiting = h.service.waitForTerminal(job.id, scaled(60_000), controller.signal);
    controller.abort();
    await waiting;
    await h.service.waitForTerminal('job_unknown', scaled(60_000));
    expect((await h.service.getJob(h.accountId, 'speech-to-text', job.id))?.status).toBe('queued');
  });

  it('refuses bad options and unknown accounts with clear errors', async () => {
    h = createHarness();
    expect(() => h.newService({ workers: 0 })).toThrow(/workers must be a positive number/);
    expect(() => h.newService({ workers: 1.5 })).toThrow(/workers must be an integer/);
    expect(() => h.newService({ queueWindowSeconds: -1 })).toThrow(/queueWindowSeconds/);
    await expect(h.service.createJob(h.job({}, { accountId: 'acc_nobody' }))).rejects.toThrow(
      expect.objectContaining({ code: 'unauthorized', message: 'account acc_nobody does not exist' }),
    );
  });

  it('a remote runner can send a running job back to wait, and its failures become remote_failed', async () => {
    let calls = 0;
    h = createHarness({
      runners: {
        remote: {
          async run(task) {
            calls++;
            if (calls === 1) throw new JobError('waiting_for_network', 'offline');
            if (task.params.boom) throw new Error('HTTP 500 from the hosted service');
            return { result: { text: 'ok' }, artifacts: [], durationSeconds: 5 };
          },
        },
      },
    });
    h.models.set('hosted', { ...h.models.get('test-free')!, id: 'hosted', engine: 'remote', provider: 'remote' });
    await h.service.start();
    const { job } = await h.service.createJob(h.job({}, { modelId: 'hosted' }));
    const waited = whenJob(h.service, job.id, (j) => j.status === 'queued' && j.error_code === 'waiting_for_network');
    expect(await waited).toMatchObject({ error_message: 'offline', started_at: null });
    expect((await terminal(h.service, h.accountId, job.id)).status).toBe('succeeded');
    const bad = (await h.service.createJob(h.job({ boom: true }, { modelId: 'hosted' }))).job;
    expect(await terminal(h.service, h.accountId, bad.id)).toMatchObject({ status: 'failed', error_code: 'remote_failed', error_message: 'HTTP 500 from the hosted service' });
  });
});
