/**
 * A hosted run that gives up waiting for the network is not an attempt (docs/job-engine.md, "Attempts";
 * jobs/job-runner.ts RunnerTask.attempt): the next run has the same attempt number and the job's attempts stay 1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { JobError } from '../../../../src-main/common/errors.js';
import type { RunnerTask } from '../../../../src-main/jobs/engine/job-runner.js';
import { createRepositories } from '../../../../src-main/store/repositories.js';
import { createHarness, terminal, type Harness } from '../harness.js';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

describe('attempts of a hosted job', () => {
  it('a run that gave up for the network does not count: every run is attempt 1, and the job ends with 1', async () => {
    const attempts: number[] = [];
    let online = true;
    const harness = (h = createHarness({
      schedulerIntervalMs: 50,
      runners: {
        remote: {
          readiness: () => (online ? null : 'waiting_for_network'),
          async run(task: RunnerTask) {
            attempts.push(task.attempt);
            if (attempts.length < 3) {
              online = false;
              setTimeout(() => (online = true), 50);
              throw new JobError('waiting_for_network', 'the hosted service cannot be reached');
            }
            return { result: { text: 'hosted' }, artifacts: [], durationSeconds: 1 };
          },
        },
      },
    }));
    harness.models.set('hosted', { ...harness.models.get('test-free')!, id: 'hosted', engine: 'remote', provider: 'remote' });
    await harness.service.start();
    const { job } = await harness.service.createJob(harness.job({}, { modelId: 'hosted' }));
    expect((await terminal(harness.service, harness.accountId, job.id)).status).toBe('succeeded');
    expect(attempts).toEqual([1, 1, 1]);
    expect(createRepositories(harness.db).jobs.get(job.id)?.attempts).toBe(1);
  });
});
