import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, terminal, type Harness } from '../harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('upload retention', () => {
  it('deletes a finished job’s uploaded recording after the window, keeps the job, and refuses a retry clearly', async () => {
    let offset = 0;
    h = createHarness({ clock: () => new Date(Date.now() + offset), uploadRetentionSeconds: 60 });
    const folder = join(h.dir, 'uploads', 'up_test');
    mkdirSync(folder, { recursive: true });
    const recording = join(folder, 'interview.wav');
    const outside = join(h.dir, 'not-an-upload.wav');
    writeFileSync(recording, 'RIFF');
    writeFileSync(outside, 'RIFF');
    await h.service.start();

    const failing = (await h.service.createJob(h.job({ behaviour: 'fail' }, { input: { filePath: recording, fileName: 'interview.wav' } }))).job;
    const foreign = (await h.service.createJob(h.job({ behaviour: 'fail' }, { input: { filePath: outside } }))).job;
    await terminal(h.service, h.accountId, failing.id);
    await terminal(h.service, h.accountId, foreign.id);

    await h.service.runMaintenance();
    expect(existsSync(recording)).toBe(true); // within the window: a retry can still use it

    offset = 61_000;
    await h.service.runMaintenance();
    expect(existsSync(recording)).toBe(false);
    expect(existsSync(folder)).toBe(false);
    expect(existsSync(outside)).toBe(true); // never delete what is not in the uploads folder
    expect((await h.service.getJob(h.accountId, 'speech-to-text', failing.id))?.status).toBe('failed');
    await expect(h!.service.retryJob(h!.accountId, 'speech-to-text', failing.id)).rejects.toThrow(/deleted after its retention window/);
  });
});
