/**
 * The worker pool on its own (engines/worker/worker-pool.ts), with real worker processes running the test engine:
 * what the job engine relies on, proven without it — a task's result and progress, a crash that fails only the task
 * it hit, cancellation and timeouts that kill a worker which will not stop, workers started on demand and leaving
 * when idle, cheap tasks waiting in a worker's line sent again when the one ahead of them crashed, and a task that
 * found no place (a race with the caller's count) waiting in line instead of failing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineTask } from '../../../../src-main/engines/engine-types.js';
import { WorkerCrashError, WorkerPool, type WorkerPoolOptions } from '../../../../src-main/engines/worker/worker-pool.js';
import { BACKGROUND_PRIORITY } from '../../../../src-main/platform/background-priority.js';
import { scaled } from '../../../helpers/time-scale.js';

const env = { ...process.env, VOXDESK_TEST_ENGINES: '1' };
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function pool(options: Partial<WorkerPoolOptions> = {}): { pool: WorkerPool; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'voxdesk-pool-'));
  const created = new WorkerPool({ size: 1, logDir: dir, env, cancelGraceMs: 200, ...options });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => created.stop());
  return { pool: created, dir };
}

let taskNumber = 0;
function task(dir: string, params: Record<string, unknown>): EngineTask {
  taskNumber += 1;
  const jobId = `job_pool_${taskNumber}`;
  return { jobId, product: 'speech-to-text', modelId: 'test', engine: 'test', engineConfig: {}, params, input: {}, workDir: join(dir, jobId) };
}

describe('the worker pool', () => {
  it("runs a task in a worker process and reports its progress and result", async () => {
    const { pool: workers, dir } = pool();
    workers.start();
    const progress: number[] = [];
    const output = await workers.run(task(dir, { behaviour: 'sleep', ms: 100, seconds: 3 }), { progress: (p) => progress.push(p) });
    expect(output.result).toEqual({ text: `test job_pool_${taskNumber}` });
    expect(output.durationSeconds).toBe(3);
    expect(progress.at(-1)).toBe(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('runs its worker processes behind the service: at the background priority (platform/background-priority.ts)', async () => {
    const { pool: workers } = pool();
    workers.start();
    await workers.whenReady();
    const [pid] = workers.pids();
    expect(getPriority(pid)).toBe(Math.max(getPriority(), BACKGROUND_PRIORITY));
  });

  it('a worker that crashes fails only the task it ran, and the next task runs in a new process', async () => {
    const { pool: workers, dir } = pool();
    workers.start();
    await workers.whenReady();
    const [before] = workers.pids();
    await expect(workers.run(task(dir, { behaviour: 'crash' }))).rejects.toBeInstanceOf(WorkerCrashError);
    await expect(workers.run(task(dir, { behaviour: 'exit' }))).rejects.toBeInstanceOf(WorkerCrashError);
    expect((await workers.run(task(dir, { behaviour: 'succeed' }))).result).toMatchObject({ text: expect.stringMatching(/^test job_pool_/) });
    expect(workers.pids()).not.toContain(before);
  });

  it('a cancelled task that does not stop is killed with its worker after the grace period; the pool goes on', async () => {
    const { pool: workers, dir } = pool({ cancelGraceMs: 100 });
    const controller = new AbortController();
    const hanging = workers.run(task(dir, { behaviour: 'hang' }), {}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    await expect(hanging).rejects.toThrow();
    expect((await workers.run(task(dir, {}))).durationSeconds).toBe(1);
  });

  it('a task over its time limit fails with engine_timeout', async () => {
    const { pool: workers, dir } = pool();
    await expect(workers.run(task(dir, { behaviour: 'hang' }), {}, { timeoutMs: 300 })).rejects.toMatchObject({ code: 'engine_timeout' });
    expect((await workers.run(task(dir, {}))).durationSeconds).toBe(1);
  });

  it('on demand: no process until a task needs one, and an idle worker leaves', async () => {
    const { pool: workers, dir } = pool({ startWorkers: 'on-demand', idleExitMs: 200 });
    workers.start();
    expect(workers.pids()).toEqual([]);
    await workers.run(task(dir, {}));
    expect(workers.pids()).toHaveLength(1);
    await expect.poll(() => workers.pids(), { timeout: scaled(20_000), interval: 50 }).toEqual([]);
    expect((await workers.run(task(dir, {}))).durationSeconds).toBe(1); // started again
  });

  it('cheap tasks waiting in line behind a task that crashed are sent again to the restarted worker', async () => {
    const { pool: workers, dir } = pool({ cheapTaskMs: 10_000 });
    workers.start();
    // Three runs make the kind cheap, so the next tasks may wait in the one worker's line.
    for (let i = 0; i < 3; i++) await workers.run(task(dir, {}));
    expect(workers.cheap('test')).toBe(true);
    const crashing = workers.run(task(dir, { behaviour: 'sleep', ms: 300 }));
    const crash = workers.run(task(dir, { behaviour: 'crash' }));
    const waiting = [1, 2, 3].map(() => workers.run(task(dir, {})));
    await expect(crashing).resolves.toMatchObject({ durationSeconds: 1 });
    await expect(crash).rejects.toBeInstanceOf(WorkerCrashError);
    for (const run of waiting) await expect(run).resolves.toMatchObject({ durationSeconds: 1 });
  });

  it('a task sent when no place is left for it (what the caller counted on changed) waits in line and runs', async () => {
    const { pool: workers, dir } = pool();
    workers.start();
    // Never measured, so not cheap: no busy worker's line takes it, and the one worker is busy.
    const busy = workers.run(task(dir, { behaviour: 'sleep', ms: 300 }));
    expect(workers.idle).toBe(0);
    expect(workers.spare).toBe(0);
    const late = workers.run(task(dir, {}));
    await expect(busy).resolves.toMatchObject({ durationSeconds: 1 });
    await expect(late).resolves.toMatchObject({ result: { text: `test job_pool_${taskNumber}` } });
  });
});
