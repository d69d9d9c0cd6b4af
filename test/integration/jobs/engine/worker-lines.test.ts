/**
 * Cheap tasks wait in a busy worker's line (engines/worker/worker-pool.ts) with real worker processes: they run one
 * after the other, a job waiting for an idle worker is never overtaken by them, one cancelled while it waits ends
 * without touching the running one, and one waiting behind a worker that is killed runs on its replacement. The
 * test engine is made cheap by raising `cheapTaskMs` (what counts is how the pool decides, not this machine's speed).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { JobRow } from '../../../../src-main/store/jobs-repo.js';
import { createHarness, testModel, until, type Harness } from '../harness.js';
import { scaled } from '../../../helpers/time-scale.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** One worker whose test-engine tasks count as cheap once three have run. */
async function oneCheapWorker(extra: Parameters<typeof createHarness>[0] = {}): Promise<Harness> {
  const harness = createHarness({ workers: 1, cheapTaskMs: 60_000, warmEngines: [], ...extra });
  await harness.service.start();
  for (let i = 0; i < 3; i++) {
    const { job } = await harness.service.createJob(harness.job({ behaviour: 'succeed' }));
    await harness.service.waitForTerminal(job.id, scaled(30_000));
  }
  return harness;
}

function row(harness: Harness, id: string): JobRow {
  return harness.repos.jobs.get(id)!;
}

async function submit(harness: Harness, params: Record<string, unknown>): Promise<string> {
  return (await harness.service.createJob(harness.job(params))).job.id;
}

async function finished(harness: Harness, ...ids: string[]): Promise<JobRow[]> {
  await Promise.all(ids.map((id) => harness.service.waitForTerminal(id, scaled(60_000))));
  return ids.map((id) => row(harness, id));
}

describe('cheap tasks in a worker line', () => {
  it('start while the worker is busy and run one after the other, in order', async () => {
    h = await oneCheapWorker();
    const slow = await submit(h, { behaviour: 'sleep', ms: 2000 });
    await until('the slow job to run', () => row(h!, slow).status === 'running');
    const first = await submit(h, { behaviour: 'succeed' });
    const second = await submit(h, { behaviour: 'succeed' });
    // Claimed into the line while the only worker is still busy with the slow job.
    await until('the cheap jobs to be claimed', () => row(h!, second).status !== 'queued');
    expect(row(h, slow).status).toBe('running');
    const [s, a, b] = await finished(h, slow, first, second);
    expect([s!.status, a!.status, b!.status]).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(a!.finished_at! >= s!.finished_at!).toBe(true);
    expect(b!.finished_at! >= a!.finished_at!).toBe(true);
    expect(h.service.workerStats().started).toBe(1);
  });

  it('fill an idle worker\'s line in the pass that gives it the first of them', async () => {
    // No timer pass for a minute: only the pass that follows the submissions can claim the jobs before the first ends.
    h = await oneCheapWorker({ schedulerIntervalMs: 60_000 });
    const ids = await Promise.all([1, 2, 3, 4].map(() => submit(h!, { behaviour: 'sleep', ms: 3000 })));
    await until('all four to be claimed', () => ids.every((id) => row(h!, id).status === 'running'));
    // Claimed while the first still runs: the other three wait in the worker's line behind it.
    expect(row(h, ids[0]!).finished_at).toBeNull();
    const done = await finished(h, ...ids);
    expect(done.map((r) => r.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
    for (let i = 1; i < done.length; i++) expect(done[i]!.started_at! >= done[i - 1]!.started_at!).toBe(true);
    expect(h.service.workerStats().started).toBe(1);
  });

  it('do not overtake a job that waits for an idle worker', async () => {
    h = await oneCheapWorker();
    h.models.set('tts', testModel('tts', { engine: 'espeak', capability: 'tts', products: ['text-to-speech'] }));
    const slow = await submit(h, { behaviour: 'sleep', ms: 1500 });
    await until('the slow job to run', () => row(h!, slow).status === 'running');
    // Not a cheap kind (never measured): it waits for the worker to be idle.
    const speech = (await h.service.createJob({ ...h.job({}), product: 'text-to-speech', modelId: 'tts', input: { text: 'Hello.' } })).job.id;
    const cheap = await submit(h, { behaviour: 'succeed' });
    const [s, e, c] = await finished(h, slow, speech, cheap);
    expect(s!.status).toBe('succeeded');
    expect(c!.status).toBe('succeeded');
    expect(e!.started_at! >= s!.finished_at!).toBe(true);
    // Neither started before the job ahead of it, nor joined the line of a worker running a kind that is not cheap.
    expect(c!.started_at! >= e!.finished_at!).toBe(true);
  });

  it('a job cancelled while it waits in line ends at once; the running one is not touched', async () => {
    h = await oneCheapWorker();
    const slow = await submit(h, { behaviour: 'sleep', ms: 2500 });
    await until('the slow job to run', () => row(h!, slow).status === 'running');
    const waiting = await submit(h, { behaviour: 'succeed' });
    await until('the cheap job to be claimed', () => row(h!, waiting).status === 'running');
    await h.service.cancelJob(h.accountId, 'speech-to-text', waiting);
    const [w] = await finished(h, waiting);
    expect(w!.status).toBe('cancelled');
    expect(row(h, slow).status).toBe('running');
    const [s] = await finished(h, slow);
    expect(s!.status).toBe('succeeded');
    expect(h.service.workerStats().started).toBe(1);
  });

  it('a job waiting behind a task whose worker is killed runs on the new worker, its attempt not counted twice', async () => {
    // The replacement loads the test engine before it reports ready: its task's timeout counts from then.
    h = await oneCheapWorker({ runTimeoutSeconds: 3, warmEngines: ['test'] });
    const hung = await submit(h, { behaviour: 'hang' });
    await until('the hanging job to run', () => row(h!, hung).status === 'running');
    const waiting = await submit(h, { behaviour: 'succeed' });
    await until('the cheap job to be claimed', () => row(h!, waiting).status === 'running');
    const [x, w] = await finished(h, hung, waiting);
    expect(x!.error_code).toBe('engine_timeout');
    expect(w!.status).toBe('succeeded');
    expect(w!.attempts).toBe(1);
    expect(h.service.workerStats().started).toBe(2);
  });
});
