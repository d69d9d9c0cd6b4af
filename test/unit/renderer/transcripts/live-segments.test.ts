/**
 * The transcript that fills in while a transcription runs (src-renderer/src/lib/live-segments.svelte.ts) and the
 * pause/resume actions (job-actions.ts), against a real service running the tiny NeMo CTC model, with the page's own
 * AppState as host: segments arrive in order and what is shown is only ever appended to, across a pause.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SegmentView } from '../../../../src-main/common/api-types.js';
import type { AppState } from '../../../../src-renderer/src/shared/service/app-state.svelte.js';
import { canPause, isPaused, pauseOrResume } from '../../../../src-renderer/src/jobs/job-actions.js';
import { LiveSegments } from '../../../../src-renderer/src/transcripts/live-segments.svelte.js';
import { connectedAppState, until } from '../../../helpers/renderer-host.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { TINY_CTC, tinyCtcSource } from '../../../helpers/tiny-asr-model.js';
import { makeLongRecording } from '../../../helpers/long-recording.js';
import { makeTempDir } from '../../../helpers/audio-fixtures.js';
import { scaled } from '../../../helpers/time-scale.js';

const temp = makeTempDir('voxdesk-live-segments-');
let svc: TestService;
let app: AppState;
let recording: File;

beforeAll(async () => {
  recording = new File([readFileSync(makeLongRecording(temp.dir))], 'meeting.wav', { type: 'audio/wav' });
  process.env.VOXDESK_TEST_SEGMENT_DELAY_MS = '150';
  svc = await startTestService({ holdSeconds: 0, workers: 1, extraModelSources: [tinyCtcSource] });
  app = connectedAppState(svc);
}, scaled(120_000));
afterAll(async () => {
  delete process.env.VOXDESK_TEST_SEGMENT_DELAY_MS;
  app?.stopPolling();
  await svc?.stop();
  temp.cleanup();
});

describe('LiveSegments', () => {
  it('follows a running transcription a segment at a time, only appending, through a pause, to the finished transcript', async () => {
    const job = await app.api.transcribe({ file: recording, filename: recording.name }, { model: TINY_CTC, name: recording.name });
    app.upsertJob(job);
    const live = new LiveSegments(app);
    const shown: SegmentView[][] = [];
    const watch = setInterval(() => {
      live.sync(app.jobById(job.id));
      if (shown[shown.length - 1] !== live.segments) shown.push(live.segments);
    }, 20);
    try {
      await until(() => live.segments.length >= 3, 'the first segments', scaled(120_000));
      const running = app.jobById(job.id)!;
      expect(running.status).toBe('running');
      expect(canPause(running)).toBe(true);
      await pauseOrResume(app, running, 'pause');
      await until(() => isPaused(app.jobById(job.id)), 'the pause', scaled(60_000));
      await pauseOrResume(app, app.jobById(job.id)!, 'resume');
      await until(() => live.complete, 'the whole transcript', scaled(240_000));
    } finally {
      clearInterval(watch);
    }
    const done = await app.api.getJob('speech-to-text', job.id);
    expect(done.status).toBe('succeeded');
    // The live view shows the committed segments; the result reads them in sentences (sentence-segments.ts).
    expect(live.segments.map((s) => s.text).join(' ')).toBe(done.result!.segments!.map((s) => s.text).join(' '));
    expect(live.segments.map((s) => s.index)).toEqual([...live.segments.map((s) => s.index)].sort((a, b) => a - b));
    // Every state shown was the one before it plus segments at the end: text being read never moved.
    for (let i = 1; i < shown.length; i++) expect(shown[i]!.slice(0, shown[i - 1]!.length)).toEqual(shown[i - 1]);
    expect(shown.length).toBeGreaterThan(3);
    // Another job starts over; a job of another product is not followed.
    live.sync({ ...done, id: 'job_other' });
    expect(live.segments).toEqual([]);
    live.sync({ ...done, product: 'text-to-speech' });
    expect(live.jobId).toBeNull();
  }, scaled(300_000));
});
