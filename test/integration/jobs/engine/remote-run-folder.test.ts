import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JobError } from '../../../../src-main/common/errors.js';
import type { RunnerTask } from '../../../../src-main/jobs/engine/job-runner.js';
import { createHarness, terminal, type Harness } from '../harness.js';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

describe('a hosted run’s folder', () => {
  it('is made while the runner starts and is empty of an interrupted attempt when workDirReady settles', async () => {
    const seen: { run: number; before: string[] }[] = [];
    let online = true;
    h = createHarness({
      schedulerIntervalMs: 50,
      runners: {
        remote: {
          readiness: () => (online ? null : 'waiting_for_network'),
          async run(task: RunnerTask) {
            expect(task.workDirReady).toBeInstanceOf(Promise);
            await task.workDirReady;
            expect(statSync(task.workDir).isDirectory()).toBe(true);
            seen.push({ run: seen.length + 1, before: readdirSync(task.workDir) });
            if (seen.length === 1) {
              // An attempt that left a partial download behind, then lost the network.
              writeFileSync(join(task.workDir, 'speech.wav.part'), 'partial');
              online = false;
              setTimeout(() => (online = true), 100);
              throw new JobError('waiting_for_network', 'offline');
            }
            const path = join(task.workDir, 'speech.wav');
            writeFileSync(path, 'RIFF');
            return { result: {}, artifacts: [{ path, contentType: 'audio/wav', durationSeconds: null, sampleRate: null, channels: null }], durationSeconds: 1 };
          },
        },
      },
    });
    h.models.set('hosted', { ...h.models.get('test-free')!, id: 'hosted', engine: 'remote', provider: 'remote' });
    await h.service.start();
    const { job } = await h.service.createJob(h.job({}, { modelId: 'hosted' }));
    const done = await terminal(h.service, h.accountId, job.id);
    expect(done.status).toBe('succeeded');
    expect(seen).toEqual([
      { run: 1, before: [] },
      { run: 2, before: [] },
    ]);
    expect(done.result?.artifacts).toHaveLength(1);
  });

  it('is not left behind, empty, by a hosted run without artifacts; a runner that ignores workDirReady is fine', async () => {
    let workDir = '';
    h = createHarness({
      runners: {
        remote: {
          async run(task: RunnerTask) {
            workDir = task.workDir;
            return { result: { text: 'hosted' }, artifacts: [], durationSeconds: 1 };
          },
        },
      },
    });
    h.models.set('hosted', { ...h.models.get('test-free')!, id: 'hosted', engine: 'remote', provider: 'remote' });
    await h.service.start();
    const { job } = await h.service.createJob(h.job({}, { modelId: 'hosted' }));
    expect((await terminal(h.service, h.accountId, job.id)).status).toBe('succeeded');
    await expect.poll(() => existsSync(workDir)).toBe(false);
  });
});
