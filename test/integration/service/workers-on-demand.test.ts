/**
 * Engine workers on demand (engines/worker/worker-pool.ts, config.workerStart / workerIdleExitMs): a service that just
 * started holds no worker process; the first job starts one; a worker with nothing to do exits after the idle time and
 * the next job starts another; `eager` starts them all with the service, as before.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Job } from '../../../src-main/common/api-types.js';
import type { JobEngine } from '../../../src-main/jobs/engine/job-service.js';
import { Client, json } from '../../helpers/http-client.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { scaled } from '../../helpers/time-scale.js';
import { until } from '../../helpers/wait.js';

let t: TestService | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

const engine = (service: TestService): JobEngine => service.service.jobs as JobEngine;
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
/** This file's waits (helpers/wait.ts). */
const WAIT = { timeoutMs: scaled(20_000) };

describe('workers on demand', () => {
  it('starts none with the service, one with the first job, lets it exit when idle and starts one again', async () => {
    t = await startTestService({ workers: 2, workerIdleExitMs: 1500 });
    const api = new Client(t.url, t.key);
    await t.service.warmUp;
    expect(engine(t).workerStats()).toMatchObject({ size: 2, started: 0, pids: [] });

    const first = await json<Job>(api.postJson('/v1/text-to-speech', { model: 'test-tts', text: 'one' }));
    expect(first.status).toBe('succeeded');
    const [pid] = engine(t).workerStats().pids;
    expect(engine(t).workerStats()).toMatchObject({ started: 1 });
    expect(alive(pid!)).toBe(true);

    // Nothing to do: it exits and its process is gone.
    await until('the idle worker to exit', () => engine(t!).workerStats().pids.length === 0, Boolean, WAIT);
    await until('its process to end', () => !alive(pid!), Boolean, WAIT);

    const second = await json<Job>(api.postJson('/v1/text-to-speech', { model: 'test-tts', text: 'two' }));
    expect(second.status).toBe('succeeded');
    expect(engine(t).workerStats()).toMatchObject({ started: 2 });
    expect(engine(t).workerStats().pids).toHaveLength(1);
  });

  it('keeps a worker while jobs keep coming', async () => {
    t = await startTestService({ workers: 1, workerIdleExitMs: 1000 });
    const api = new Client(t.url, t.key);
    for (let i = 0; i < 4; i++) {
      expect((await json<Job>(api.postJson('/v1/text-to-speech', { model: 'test-tts', text: `job ${i}` }))).status).toBe('succeeded');
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(engine(t).workerStats().started).toBe(1);
  });

  it('starts one worker ahead of a job when asked (the desktop window opened); it exits when nothing comes', async () => {
    t = await startTestService({ workers: 2, workerIdleExitMs: 1500 });
    engine(t).prewarmWorker();
    engine(t).prewarmWorker(); // one is enough
    expect(engine(t).workerStats().started).toBe(1);
    await engine(t).workersReady();
    const [pid] = engine(t).workerStats().pids;
    await until('the unused worker to exit', () => engine(t!).workerStats().pids.length === 0, Boolean, WAIT);
    await until('its process to end', () => !alive(pid!), Boolean, WAIT);
  });

  it('eager starts every worker with the service', async () => {
    t = await startTestService({ workers: 2, workerStart: 'eager' });
    await engine(t).workersReady();
    expect(engine(t).workerStats()).toMatchObject({ size: 2, started: 2 });
    expect(engine(t).workerStats().pids).toHaveLength(2);
  });
});
