/** What the shell shows of the work outside the window (app/work-status.ts): tray, badge, progress, notifications. */
import { describe, expect, it } from 'vitest';
import type { Batch, Job } from '../../../src-main/common/api-types.js';
import { LONG_JOB_SECONDS, wantsSystemNotice, WorkStatus } from '../../../src-main/app/work-status.js';

const SINCE = Date.parse('2026-05-01T10:00:00Z');
const at = (seconds: number): string => new Date(SINCE + seconds * 1000).toISOString();

function job(patch: Partial<Job>): Job {
  return {
    id: 'job_1',
    product: 'speech-to-text',
    status: 'running',
    model_id: 'm',
    name: 'interview.wav',
    duration_seconds: null,
    result: null,
    error_code: null,
    error_message: null,
    created_at: at(1),
    started_at: at(1),
    finished_at: null,
    progress: null,
    batch_id: null,
    ...patch,
  };
}

describe('WorkStatus notices', () => {
  it('announces a long job by its name when it ends, once it succeeded or failed', () => {
    const work = new WorkStatus(SINCE);
    expect(work.job(job({}))).toBeNull();
    expect(work.job(job({ status: 'succeeded', finished_at: at(1 + LONG_JOB_SECONDS) }))).toEqual({ title: 'Transcription finished', body: 'interview.wav', jobId: 'job_1', batchId: null });
    expect(work.job(job({ id: 'job_2', product: 'text-to-speech', name: 'Dear friends…', status: 'failed', error_message: 'the engine crashed', finished_at: at(100) }))).toEqual({
      title: 'Speech failed',
      body: 'Dear friends…: the engine crashed',
      jobId: 'job_2',
      batchId: null,
    });
  });

  it('keeps quiet about short jobs, cancelled ones, batch items and work from before the app started', () => {
    const work = new WorkStatus(SINCE);
    expect(work.job(job({ status: 'succeeded', finished_at: at(1 + LONG_JOB_SECONDS - 1) }))).toBeNull();
    expect(work.job(job({ status: 'cancelled', finished_at: at(200) }))).toBeNull();
    expect(work.job(job({ status: 'succeeded', batch_id: 'bat_1', finished_at: at(200) }))).toBeNull();
    expect(work.job(job({ status: 'succeeded', created_at: at(-100), finished_at: at(200) }))).toBeNull();
  });

  it('announces a batch when it completes', () => {
    const work = new WorkStatus(SINCE);
    const batch = { id: 'bat_1', status: 'open', product: 'speech-to-text', file_count: 2, succeeded: 0, failed: 0, created_at: at(1) } as unknown as Batch;
    expect(work.batch(batch)).toBeNull();
    expect(work.batch({ ...batch, status: 'complete', succeeded: 2 })).toEqual({ title: 'Transcription batch finished', body: 'All 2 files done.', jobId: null, batchId: 'bat_1' });
  });
});

describe('WorkStatus view', () => {
  it('counts running, queued and pending work on the badge and averages the progress of running jobs', () => {
    const work = new WorkStatus(SINCE);
    expect(work.view(null)).toEqual({ label: 'Voxdesk — starting', badge: 0, progress: -1 });
    work.job(job({ id: 'job_a', progress: 0.2 }));
    work.job(job({ id: 'job_b', progress: 0.6 }));
    work.job(job({ id: 'job_c', progress: null }));
    const view = work.view({ queued: 3, running: 3, pending: 1, waiting: {} });
    expect(view).toMatchObject({ label: 'Voxdesk — 3 running, 3 queued, 1 pending', badge: 7 });
    expect(view.progress).toBeCloseTo(0.4, 10);
    work.job(job({ id: 'job_a', status: 'succeeded', finished_at: at(2) }));
    work.job(job({ id: 'job_b', status: 'succeeded', finished_at: at(2) }));
    expect(work.view({ queued: 0, running: 1, waiting: {} }).progress).toBe(0); // running, progress unknown
    work.job(job({ id: 'job_c', status: 'failed', finished_at: at(2) }));
    expect(work.view({ queued: 0, running: 0, waiting: {} })).toEqual({ label: 'Voxdesk — idle', badge: 0, progress: -1 });
  });
});

describe('wantsSystemNotice', () => {
  const window = (visible: boolean, minimized: boolean, focused: boolean) => ({ isVisible: () => visible, isMinimized: () => minimized, isFocused: () => focused });
  it('only when the window is not in front of the person', () => {
    expect(wantsSystemNotice(window(true, false, true))).toBe(false);
    expect(wantsSystemNotice(window(false, false, false))).toBe(true);
    expect(wantsSystemNotice(window(true, true, false))).toBe(true);
    expect(wantsSystemNotice(window(true, false, false))).toBe(true);
    expect(wantsSystemNotice(null)).toBe(true);
  });
});
