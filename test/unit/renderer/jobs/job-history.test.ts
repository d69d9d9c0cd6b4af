/**
 * The Jobs tab's history (src-renderer/src/lib/job-history.svelte.ts) against a real service with the page's
 * AppState as host: older pages beyond the polled hundred, filters, cancel, retry, open.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppState } from '../../../../src-renderer/src/shared/service/app-state.svelte.js';
import { JobHistory, matchesFilter } from '../../../../src-renderer/src/jobs/job-history.svelte.js';
import { connectedAppState, until } from '../../../helpers/renderer-host.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { scaled } from '../../../helpers/time-scale.js';

let svc: TestService;
let app: AppState;

beforeAll(async () => {
  svc = await startTestService({ workers: 2 });
  app = connectedAppState(svc);
});
afterAll(async () => {
  app?.stopPolling();
  await svc?.stop();
});

async function speakBatch(prefix: string, count: number, params: Record<string, unknown> = { ms: 0 }): Promise<void> {
  const items = Array.from({ length: count }, (_, i) => ({ text: `${prefix} ${i}`, name: `${prefix} ${i}` }));
  const batch = await app.api.speakBatch({ model: 'test-tts', params, items });
  await until(() => app.batchById(batch.id)?.status === 'complete', `batch ${prefix}`, scaled(60_000));
}

describe('JobHistory', () => {
  it('pages through jobs older than the polled hundred, each once', async () => {
    for (const prefix of ['a', 'b', 'c']) await speakBatch(prefix, 40);
    const history = new JobHistory(app);
    await until(() => app.jobs.length === 100, 'the first page');
    expect(history.nextCursor).not.toBeNull();
    await history.loadOlder();
    expect(history.all).toHaveLength(120);
    expect(new Set(history.all.map((j) => j.id)).size).toBe(120);
    expect(history.nextCursor).toBeNull();
    expect(history.all.filter((j) => matchesFilter(j, 'succeeded'))).toHaveLength(120);
    expect(history.all.filter((j) => matchesFilter(j, 'failed'))).toHaveLength(0);
  });

  it('cancels a running job, retries it, and opens a finished one with its result', async () => {
    const history = new JobHistory(app);
    const slow = await app.api.speakBatch({ model: 'test-tts', params: { behaviour: 'sleep', ms: 30_000 }, items: [{ text: 'slow', name: 'slow one' }] });
    const jobId = slow.files[0]!.job_id!;
    await until(() => app.jobById(jobId)?.status === 'running', 'the job to run');
    await history.act('cancel', app.jobById(jobId)!);
    await until(() => app.jobById(jobId)?.status === 'cancelled', 'the cancel'); // the worker stops it a moment later
    expect(matchesFilter(app.jobById(jobId)!, 'failed')).toBe(true);

    await history.act('retry', app.jobById(jobId)!);
    const retried = app.jobs.find((j) => j.name === 'slow one' && j.id !== jobId);
    expect(retried).toBeDefined();
    expect(matchesFilter(retried!, 'active')).toBe(true);
    await history.act('cancel', retried!);

    const finished = app.jobs.find((j) => j.status === 'succeeded')!;
    await history.open(finished);
    expect(history.opened).toMatchObject({ id: finished.id, status: 'succeeded' });
    history.close();
    expect(history.opened).toBeNull();
  });
});
