/**
 * The job engine's side of checkpoints, with the test engine's checkpointing transcription in real worker processes
 * and a real SQLite file: each segment committed with the progress it brings, the result built from the rows, a
 * segment that cannot be committed (a wrong index) stopping the run and the job resuming from its last good one,
 * pause and resume, a shutdown in the middle, and a paused job that does not expire.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Job } from '../../../../src-main/common/api-types.js';
import { ApiError } from '../../../../src-main/common/errors.js';
import { createHarness, terminal, whenJob, type Harness } from '../harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const rows = (jobId: string): string[] => h!.repos.segments.all(jobId).map((r) => `${r.idx}:${r.text}`);

describe('checkpointed jobs', () => {
  it('commit each segment with its progress, and the result is built from the committed rows', async () => {
    h = createHarness();
    const { job } = await h.service.createJob(h.job({ behaviour: 'segments', count: 4, ms: 50 }));
    const seen: { progress: number | null; committed: number }[] = [];
    h.service.events.on('job-changed', (changed: Job) => {
      if (changed.id === job.id && changed.status === 'running') seen.push({ progress: changed.progress, committed: h!.repos.segments.count(job.id) });
    });
    await h.service.start();
    const done = await terminal(h.service, h.accountId, job.id);
    expect(done.status).toBe('succeeded');
    expect(done.result?.text).toBe('segment 0 segment 1 segment 2 segment 3');
    expect(done.result?.segments?.map((s) => [s.id, s.start, s.end])).toEqual([[0, 0, 9], [1, 10, 19], [2, 20, 29], [3, 30, 39]]);
    expect(rows(job.id)).toEqual(['0:segment 0', '1:segment 1', '2:segment 2', '3:segment 3']);
    // Every progress step came with its segment, in the same commit.
    const steps = seen.filter((s) => s.committed > 0);
    expect(steps.map((s) => s.committed)).toEqual([1, 2, 3, 4]);
    steps.forEach((s, i) => expect(s.progress).toBeCloseTo(((i + 1) / 4) * 0.99, 9));
    expect(done.resumed_from).toBeNull();
  });

  it('a segment that cannot be committed stops the run; the job continues from its last good segment', async () => {
    h = createHarness();
    const { job } = await h.service.createJob(h.job({ behaviour: 'segments', count: 5, ms: 30, bad_index_at: 2 }));
    await h.service.start();
    const done = await terminal(h.service, h.accountId, job.id);
    expect(done.status).toBe('succeeded');
    expect(rows(job.id)).toEqual([0, 1, 2, 3, 4].map((i) => `${i}:segment ${i}`));
    expect(done.resumed_from).toBe(19); // after segment 1, the last one committed before the bad one
    expect(h.repos.jobs.get(job.id)?.attempts).toBe(1); // not the job's fault
  });

  it('a resumed run gives the sentence segments an uninterrupted run gives (issue 29.5)', async () => {
    h = createHarness();
    const text = 'We met at noon. The budget is ready! Any questions?';
    const { job: whole } = await h.service.createJob(h.job({ behaviour: 'segments', count: 4, ms: 20, text }));
    const { job: resumed } = await h.service.createJob(h.job({ behaviour: 'segments', count: 4, ms: 20, text, bad_index_at: 2 }));
    await h.service.start();
    const [a, b] = [await terminal(h.service, h.accountId, whole.id), await terminal(h.service, h.accountId, resumed.id)];
    expect(b.resumed_from).toBe(19);
    // Each committed segment (one per 10 s) reads as its three sentences, in the result and in revision 0.
    expect(h.repos.segments.all(whole.id)).toHaveLength(4);
    expect(a.result?.segments?.map((s) => s.text)).toEqual(Array.from({ length: 4 }, () => ['We met at noon.', 'The budget is ready!', 'Any questions?']).flat());
    expect(a.result?.segments?.map((s) => s.id)).toEqual([...Array(12).keys()]);
    expect(b.result).toEqual(a.result);
    const sentences = (id: string): unknown => JSON.parse(h!.repos.revisions.latest(id)!.segments_json);
    expect(sentences(resumed.id)).toEqual(sentences(whole.id));
  });

  it('pause stops a running job after its segment and keeps it queued with its progress; resume continues it', async () => {
    h = createHarness();
    const { job } = await h.service.createJob(h.job({ behaviour: 'segments', count: 6, ms: 300 }));
    await h.service.start();
    await whenJob(h.service, job.id, () => h!.repos.segments.count(job.id) >= 2);
    await h.service.pauseJob(h.accountId, 'speech-to-text', job.id);
    const paused = await whenJob(h.service, job.id, (j) => j.status === 'queued');
    expect(paused).toMatchObject({ error_code: 'paused', started_at: null });
    const committed = h.repos.segments.count(job.id);
    expect(paused.progress).toBeCloseTo((committed / 6) * 0.99, 5);
    await new Promise((resolve) => setTimeout(resolve, 1200)); // scheduler passes: a paused job is not started
    expect(h.repos.jobs.get(job.id)).toMatchObject({ status: 'queued', error_code: 'paused' });
    expect((await h.service.queueSummary(h.accountId)).waiting.paused).toBe(1);
    await h.service.resumeJob(h.accountId, 'speech-to-text', job.id);
    const running = await whenJob(h.service, job.id, (j) => j.status === 'running');
    expect(running.resumed_from).toBe((committed - 1) * 10 + 9);
    expect(running.progress).toBeCloseTo((committed / 6) * 0.99, 5); // kept from the checkpoint, not back to null
    const done = await terminal(h.service, h.accountId, job.id);
    expect(done.status).toBe('succeeded');
    expect(rows(job.id)).toHaveLength(6);
    await expect(h!.service.pauseJob(h!.accountId, 'speech-to-text', job.id)).rejects.toThrow(ApiError);
    await expect(h!.service.resumeJob(h!.accountId, 'speech-to-text', job.id)).rejects.toThrow(/succeeded/);
  });

  it('a shutdown in the middle requeues the job; the next service continues after the last committed segment', async () => {
    h = createHarness();
    const { job } = await h.service.createJob(h.job({ behaviour: 'segments', count: 6, ms: 300 }));
    await h.service.start();
    await whenJob(h.service, job.id, () => h!.repos.segments.count(job.id) >= 2);
    await h.service.shutdown(0);
    const committed = h.repos.segments.count(job.id);
    expect(h.repos.jobs.get(job.id)).toMatchObject({ status: 'queued', attempts: 0 });
    const next = h.newService();
    await next.start();
    const done = await terminal(next, h.accountId, job.id);
    expect(done.status).toBe('succeeded');
    expect(done.resumed_from).toBe((committed - 1) * 10 + 9);
    expect(rows(job.id)).toEqual([0, 1, 2, 3, 4, 5].map((i) => `${i}:segment ${i}`));
  });

  it('a paused job does not expire; resuming starts a new queue window', async () => {
    h = createHarness({ queueWindowSeconds: 1 });
    const { job } = await h.service.createJob(h.job({ behaviour: 'segments', count: 2, ms: 10 }));
    await h.service.pauseJob(h.accountId, 'speech-to-text', job.id); // before the service even starts
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await h.service.runMaintenance();
    expect(h.repos.jobs.get(job.id)).toMatchObject({ status: 'queued', error_code: 'paused' });
    await h.service.resumeJob(h.accountId, 'speech-to-text', job.id);
    await h.service.start();
    expect((await terminal(h.service, h.accountId, job.id)).status).toBe('succeeded');
  });
});
