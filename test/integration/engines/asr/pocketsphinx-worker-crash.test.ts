/**
 * The warm PocketSphinx decoder lives in the worker process: killing that process in the middle of a transcription
 * (as a native crash would) must lose nothing. A real service with one worker transcribes jfk.wav three times over;
 * after the first utterance is committed the worker is SIGKILLed. The pool starts a new worker (which loads a new
 * decoder), the job runs again from its last committed utterance, and the engine's own log
 * (VOXDESK_TEST_RECOGNITION_LOG) shows that no committed utterance was recognised twice.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, SegmentList } from '../../../../src-main/common/api-types.js';
import { isTerminal } from '../../../../src-main/common/job-states.js';
import type { JobEngine } from '../../../../src-main/jobs/engine/job-service.js';
import { requireCommand, requireFile, SHARED } from '../../../helpers/system.js';
import { ffmpeg, makeTempDir } from '../../../helpers/audio-fixtures.js';
import { wordErrorRate } from '../../../helpers/engine-context.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { scaled } from '../../../helpers/time-scale.js';
import { until } from '../../../helpers/wait.js';

requireCommand('pocketsphinx_continuous', 'pocketsphinx');
requireFile('/usr/share/pocketsphinx/model/en-us/en-us.lm.bin', 'pocketsphinx-en-us');

const JFK_TEXT = 'And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.';
const temp = makeTempDir('voxdesk-sphinx-crash-');
const log = join(temp.dir, 'recognised.jsonl');
let svc: TestService;
let recording = '';

beforeAll(async () => {
  recording = join(temp.dir, 'jfk-3x.wav');
  ffmpeg(['-stream_loop', '2', '-i', join(SHARED, 'audio/jfk.wav'), '-c:a', 'pcm_s16le', recording]);
  process.env.VOXDESK_TEST_RECOGNITION_LOG = log; // read by the worker processes, which inherit it
  svc = await startTestService({ workers: 1, holdSeconds: 0 });
});
afterAll(async () => {
  delete process.env.VOXDESK_TEST_RECOGNITION_LOG;
  await svc?.stop();
  temp.cleanup();
});

/** The job engine behind the service (its worker figures are for diagnostics and tests). */
const workers = (): ReturnType<JobEngine['workerStats']> => (svc.service.jobs as JobEngine).workerStats();

async function get<T>(path: string): Promise<T> {
  const response = await fetch(`${svc.url}${path}`, { headers: { authorization: `Bearer ${svc.key}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

/** This file's waits (helpers/wait.ts): long enough for a killed service to start again. */
const WAIT = { timeoutMs: scaled(400_000) };

describe('PocketSphinx: the worker holding the warm decoder is killed mid-job', () => {
  it('a new worker and decoder take the job from its last committed utterance; nothing is lost or recognised twice', { timeout: scaled(600_000) }, async () => {
    const form = new FormData();
    form.append('model', 'pocketsphinx-en-us');
    form.append('file', new Blob([readFileSync(recording)], { type: 'audio/wav' }), 'jfk-3x.wav');
    const created = await fetch(`${svc.url}/v1/speech-to-text`, { method: 'POST', headers: { authorization: `Bearer ${svc.key}` }, body: form });
    expect(created.ok).toBe(true);
    const job = (await created.json()) as Job;

    const startedBefore = workers().started;
    const committed = await until(
      'a committed utterance',
      () => get<SegmentList>(`/v1/speech-to-text/${job.id}/segments?limit=1000`),
      (list) => (list.next_after ?? -1) >= 0,
    );
    const [worker] = workers().pids;
    expect(worker).toBeDefined();
    process.kill(worker!, 'SIGKILL');
    const killedAfter = committed.data.length;

    const done = await until('the job to end', () => get<Job>(`/v1/speech-to-text/${job.id}`), (j) => isTerminal(j.status), WAIT);
    expect(done.status).toBe('succeeded');
    expect(done.error_code).toBeNull();
    expect(workers().started).toBeGreaterThan(startedBefore);

    // The transcript covers the whole recording, its utterances numbered without gap, in time order.
    const segments = done.result!.segments!;
    expect(segments.map((s) => s.id)).toEqual(segments.map((_, i) => i));
    for (let i = 1; i < segments.length; i++) expect(segments[i]!.start).toBeGreaterThanOrEqual(segments[i - 1]!.end);
    expect(segments.at(-1)!.end).toBeGreaterThan(30);
    expect(wordErrorRate(`${JFK_TEXT} ${JFK_TEXT} ${JFK_TEXT}`, done.result!.text!)).toBeLessThan(0.75);
    // What was committed before the kill is kept as it was (the result reads it in sentences: sentence-segments.ts).
    const kept = committed.data.slice(0, killedAfter);
    const before = segments.filter((s) => s.end <= kept.at(-1)!.end + 1e-3);
    expect(before.map((s) => s.text).join(' ')).toBe(kept.map((s) => s.text).join(' '));

    // The engine's own count: the run after the kill resumed where the last committed utterance ended, and every
    // utterance committed before the kill was recognised exactly once.
    const entries = readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { job: string; index?: number; resume_at?: number })
      .filter((e) => e.job === job.id);
    const resumes = entries.filter((e) => e.resume_at !== undefined).map((e) => e.resume_at!);
    expect(resumes.length).toBeGreaterThanOrEqual(1);
    expect(done.resumed_from).toBe(resumes.at(-1));
    const counts = new Map<number, number>();
    for (const e of entries) if (e.index !== undefined) counts.set(e.index, (counts.get(e.index) ?? 0) + 1);
    for (let index = 0; index < killedAfter; index++) expect(counts.get(index)).toBe(1);
  });
});
