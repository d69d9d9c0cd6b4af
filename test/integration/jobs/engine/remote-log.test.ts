/**
 * What a hosted run logs goes to logs/remote.log through one asynchronous appender (jobs/job-executor.ts): every line,
 * in order, in a private file, written out when the job engine shuts down; a log that cannot be written never fails
 * the job.
 */
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunnerContext, RunnerTask } from '../../../../src-main/jobs/engine/job-runner.js';
import { createHarness, terminal, type Harness } from '../harness.js';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

function hostedHarness(lines: number): Harness {
  const harness = createHarness({
    runners: {
      remote: {
        async run(task: RunnerTask, ctx: RunnerContext) {
          for (let i = 0; i < lines; i++) ctx.log.info(`note ${i}`);
          return { result: { text: `hosted ${task.jobId}` }, artifacts: [], durationSeconds: 1 };
        },
      },
    },
  });
  harness.models.set('hosted', { ...harness.models.get('test-free')!, id: 'hosted', engine: 'remote', provider: 'remote' });
  return harness;
}

describe('remote.log', () => {
  it('holds every line a hosted run logged, in order, in a private file, once the engine shut down', async () => {
    const harness = (h = hostedHarness(50));
    await harness.service.start();
    const { job } = await harness.service.createJob(harness.job({}, { modelId: 'hosted' }));
    expect((await terminal(harness.service, harness.accountId, job.id)).status).toBe('succeeded');
    await harness.service.shutdown(0);
    const path = join(harness.dir, 'logs', 'remote.log');
    const written = readFileSync(path, 'utf8').trimEnd().split('\n');
    expect(written).toHaveLength(50);
    written.forEach((line, i) => expect(line).toMatch(new RegExp(`^\\[[^\\]]+\\] ${job.id}: note ${i}$`)));
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('never fails a job when the log cannot be written', async () => {
    const harness = (h = hostedHarness(3));
    // A folder where remote.log should be: no line can be written.
    mkdirSync(join(harness.dir, 'logs', 'remote.log'), { recursive: true });
    await harness.service.start();
    const { job } = await harness.service.createJob(harness.job({}, { modelId: 'hosted' }));
    expect((await terminal(harness.service, harness.accountId, job.id)).status).toBe('succeeded');
    await harness.service.shutdown(0);
    expect(statSync(join(harness.dir, 'logs', 'remote.log')).isDirectory()).toBe(true);
  });
});
