import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readRetention, saveRetention } from '../../../../src-main/jobs/retention/retention-policy.js';
import { createHarness, terminal, type Harness } from '../harness.js';
import { scaled } from '../../../helpers/time-scale.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const HOUR = 3_600_000;

describe('recording retention from the settings table', () => {
  it('deletes an uploaded recording the configured hours after its job ends, read at each sweep', async () => {
    let offset = 0;
    // The option says one day; the stored setting (2 h, then 5 h) must win without a restart.
    h = createHarness({ clock: () => new Date(Date.now() + offset), uploadRetentionSeconds: 86_400 });
    expect(await readRetention(h.service.store.repos.settings)).toEqual({ recordings_hours: null, job_history_days: null });
    await saveRetention(h.service.store.repos.settings, { recordings_hours: 5, job_history_days: null });
    const folder = join(h.dir, 'uploads', 'up_hours');
    mkdirSync(folder, { recursive: true });
    const recording = join(folder, 'meeting.wav');
    writeFileSync(recording, 'RIFF');
    await h.service.start();

    const job = (await h.service.createJob(h.job({ behaviour: 'fail' }, { input: { filePath: recording, fileName: 'meeting.wav' } }))).job;
    await terminal(h.service, h.accountId, job.id);

    offset = 3 * HOUR;
    await h.service.runMaintenance();
    expect(existsSync(recording)).toBe(true); // 3 h < 5 h

    await saveRetention(h.service.store.repos.settings, { recordings_hours: 2, job_history_days: null });
    await h.service.runMaintenance();
    expect(existsSync(recording)).toBe(false); // 3 h > 2 h: the new setting applies at the next sweep
    expect(existsSync(folder)).toBe(false);
    expect((await h.service.getJob(h.accountId, 'speech-to-text', job.id))?.status).toBe('failed'); // history is kept (null)
  });

  it('keeps a recording as long as its job by default, and deletes it with the job when the history rule does', async () => {
    let offset = 0;
    h = createHarness({ clock: () => new Date(Date.now() + offset) });
    const folder = join(h.dir, 'uploads', 'up_kept');
    mkdirSync(folder, { recursive: true });
    const recording = join(folder, 'interview.wav');
    writeFileSync(recording, 'RIFF');
    await h.service.start();
    const job = (await h.service.createJob(h.job({ behaviour: 'succeed' }, { input: { filePath: recording, fileName: 'interview.wav' } }))).job;
    await terminal(h.service, h.accountId, job.id);

    offset = 400 * 24 * HOUR; // more than a year: still kept, the job is
    await h.service.runMaintenance();
    expect(existsSync(recording)).toBe(true);

    await saveRetention(h.service.store.repos.settings, { recordings_hours: null, job_history_days: 30 });
    // The sweep leaves a job alone while its run is still being wound down: it goes at a following sweep.
    await expect.poll(async () => (await h!.service.runMaintenance(), await h!.service.getJob(h!.accountId, 'speech-to-text', job.id)), { timeout: scaled(20_000) }).toBeUndefined();
    expect(existsSync(recording)).toBe(false);
  });

  it('falls back to the uploadRetentionSeconds option when the stored value is unreadable', async () => {
    let offset = 0;
    h = createHarness({ clock: () => new Date(Date.now() + offset), uploadRetentionSeconds: 60 });
    h.repos.settings.set('retention', { recordings_hours: 'soon', job_history_days: -3 });
    expect(await readRetention(h.service.store.repos.settings)).toEqual({ recordings_hours: null, job_history_days: null });
    const folder = join(h.dir, 'uploads', 'up_fallback');
    mkdirSync(folder, { recursive: true });
    const recording = join(folder, 'a.wav');
    writeFileSync(recording, 'RIFF');
    await h.service.start();
    const job = (await h.service.createJob(h.job({ behaviour: 'fail' }, { input: { filePath: recording } }))).job;
    await terminal(h.service, h.accountId, job.id);

    offset = 61_000;
    await h.service.runMaintenance();
    expect(existsSync(recording)).toBe(false);
    expect(await h.service.getJob(h.accountId, 'speech-to-text', job.id)).toBeDefined();
  });
});
