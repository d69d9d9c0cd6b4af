/**
 * Checkpointed transcriptions through the real service (HTTP on 127.0.0.1, SQLite, the tiny NeMo CTC model in a
 * worker process): segments listed while the job runs, pause and resume, retry from the checkpoint, and every bad
 * input of the new routes. The engine's own log of recognised segments (VOXDESK_TEST_RECOGNITION_LOG) proves that a
 * committed segment is never recognised twice.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, SegmentList } from '../../../../src-main/common/api-types.js';
import { isTerminal } from '../../../../src-main/common/job-states.js';
import { startTestService, testModelSource, type TestService } from '../../../helpers/service.js';
import { TINY_CTC, tinyCtcSource } from '../../../helpers/tiny-asr-model.js';
import { makeTempDir } from '../../../helpers/audio-fixtures.js';
import { Client, expectError, json, type Part } from '../../../helpers/http-client.js';
import { makeLongRecording } from '../../../helpers/long-recording.js';
import { scaled } from '../../../helpers/time-scale.js';
import { until } from '../../../helpers/wait.js';

const temp = makeTempDir('voxdesk-checkpoint-api-');
const LOG = join(temp.dir, 'recognised.jsonl');
let svc: TestService;
let api: Client;
let recording: Uint8Array<ArrayBuffer>;

beforeAll(async () => {
  recording = new Uint8Array(readFileSync(makeLongRecording(temp.dir)));
  process.env.VOXDESK_TEST_RECOGNITION_LOG = LOG;
  // Room to pause between two segments on a loaded machine (the wait ends at once on cancel or pause).
  process.env.VOXDESK_TEST_SEGMENT_DELAY_MS = '200';
  svc = await startTestService({ holdSeconds: 0, workers: 1, extraModelSources: [testModelSource, tinyCtcSource] });
  api = new Client(svc.url, svc.key);
}, scaled(120_000));
afterAll(async () => {
  delete process.env.VOXDESK_TEST_RECOGNITION_LOG;
  delete process.env.VOXDESK_TEST_SEGMENT_DELAY_MS;
  await svc?.stop();
  temp.cleanup();
});

function upload(name = 'meeting.wav'): Part[] {
  return [
    { name: 'model', value: TINY_CTC },
    { name: 'name', value: name },
    { name: 'file', file: { name, data: recording } },
  ];
}

const submit = async (name?: string): Promise<Job> => json<Job>(api.postForm('/v1/speech-to-text', upload(name)));
const getJob = (id: string): Promise<Job> => json<Job>(api.get(`/v1/speech-to-text/${id}`));
const segments = (id: string, query = ''): Promise<SegmentList> => json<SegmentList>(api.get(`/v1/speech-to-text/${id}/segments${query}`));

/** This file's waits (helpers/wait.ts): long enough for a killed service to start again. */
const WAIT = { timeoutMs: scaled(240_000) };

const finished = (id: string): Promise<Job> => until(`job ${id} to finish`, () => getJob(id), (j) => isTerminal(j.status), WAIT);

/** Every segment of the job, paged through with `after`. */
async function allSegments(id: string): Promise<SegmentList['data']> {
  const out: SegmentList['data'] = [];
  let after: number | null = null;
  for (;;) {
    const page: SegmentList = await segments(id, `?limit=7${after === null ? '' : `&after=${after}`}`);
    out.push(...page.data);
    if (page.complete || page.next_after === after) return out;
    after = page.next_after;
  }
}

/** How many times the engine recognised each segment index of a job. */
function recognitions(jobId: string): Map<number, number> {
  const counts = new Map<number, number>();
  if (!existsSync(LOG)) return counts;
  for (const line of readFileSync(LOG, 'utf8').split('\n').filter(Boolean)) {
    const entry = JSON.parse(line) as { job: string; index?: number };
    if (entry.job === jobId && entry.index !== undefined) counts.set(entry.index, (counts.get(entry.index) ?? 0) + 1);
  }
  return counts;
}

let reference: Job;

describe('segments while a transcription runs', () => {
  it('appear in order as they are committed; the finished result is built from the same segments', async () => {
    const job = await submit('reference.wav');
    const early = await until('the first segments', () => segments(job.id), (s) => s.data.length >= 2, { ...WAIT, timeoutMs: scaled(120_000) });
    expect(early.complete).toBe(false);
    expect((await getJob(job.id)).status).toBe('running');
    expect(early.data.map((s) => s.index)).toEqual([...early.data.map((s) => s.index)].sort((a, b) => a - b));
    reference = await finished(job.id);
    expect(reference.status).toBe('succeeded');
    const listed = await allSegments(job.id);
    expect(listed.length).toBeGreaterThanOrEqual(15);
    expect(listed.slice(0, early.data.length)).toEqual(early.data); // committed segments never change
    // The result reads the committed segments in sentences (sentence-segments.ts): the same words, cut finer, each
    // sentence within the segment it came from.
    const sentences = reference.result!.segments!;
    expect(sentences.map((s) => s.text).join(' ')).toBe(listed.map((s) => s.text).join(' '));
    expect(sentences.length).toBeGreaterThanOrEqual(listed.length);
    for (const sentence of sentences) expect(listed.some((s) => s.start <= sentence.start && sentence.end <= s.end)).toBe(true);
    expect(listed.flatMap((s) => s.words ?? [])).toEqual(reference.result!.words);
    const last = await segments(job.id, `?after=${listed[listed.length - 1]!.index}`);
    expect(last).toEqual({ object: 'list', data: [], next_after: listed[listed.length - 1]!.index, complete: true });
    expect(reference.resumed_from).toBeNull();
    expect([...recognitions(job.id).values()].every((n) => n === 1)).toBe(true);
  }, scaled(300_000));
});

describe('pause and resume', () => {
  it('a running transcription stops after its current segment, waits paused with its segments, then continues', async () => {
    const job = await submit();
    await until('some segments', () => segments(job.id), (s) => s.data.length >= 3, { ...WAIT, timeoutMs: scaled(120_000) });
    const pausing = await json<Job>(api.post(`/v1/speech-to-text/${job.id}/pause`));
    expect(['running', 'queued']).toContain(pausing.status);
    const paused = await until('the pause', () => getJob(job.id), (j) => j.status === 'queued' && j.error_code === 'paused', WAIT);
    expect(paused.progress).toBeGreaterThan(0);
    const kept = await allSegments(job.id);
    expect(kept.length).toBeGreaterThanOrEqual(3);
    // Paused means paused: nothing runs, nothing is added (a scheduler pass or two later).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await getJob(job.id)).toMatchObject({ status: 'queued', error_code: 'paused' });
    expect(await allSegments(job.id)).toEqual(kept);
    expect((await json<{ waiting: Record<string, number> }>(api.get('/v1/queue'))).waiting.paused).toBe(1);
    // Pausing again is harmless.
    expect(await json<Job>(api.post(`/v1/speech-to-text/${job.id}/pause`))).toMatchObject({ status: 'queued', error_code: 'paused' });

    const resumed = await json<Job>(api.post(`/v1/speech-to-text/${job.id}/resume`));
    expect(resumed.error_code).toBeNull();
    const running = await until('the resumed run', () => getJob(job.id), (j) => j.status !== 'queued', WAIT);
    const done = await finished(job.id);
    expect(done.status).toBe('succeeded');
    expect(running.resumed_from ?? done.resumed_from).toBeCloseTo(kept[kept.length - 1]!.end, 0);
    expect(done.result).toEqual(reference.result);
    // The engine's own count: every segment recognised once, the paused stretch included.
    const counts = recognitions(job.id);
    expect(counts.size).toBe((await allSegments(job.id)).length);
    for (const segment of kept) expect(counts.get(segment.index)).toBe(1);
  }, scaled(300_000));

  it('a queued transcription can be paused before it starts, and resumed', async () => {
    const busy = await submit('busy.wav');
    const waiting = await submit('waiting.wav');
    await json<Job>(api.post(`/v1/speech-to-text/${waiting.id}/pause`));
    expect(await getJob(waiting.id)).toMatchObject({ status: 'queued', error_code: 'paused', started_at: null });
    await json<Job>(api.post(`/v1/speech-to-text/${busy.id}/cancel`));
    await finished(busy.id);
    await new Promise((resolve) => setTimeout(resolve, 1500)); // the worker is free: a paused job still does not start
    expect(await getJob(waiting.id)).toMatchObject({ status: 'queued', error_code: 'paused' });
    await json<Job>(api.post(`/v1/speech-to-text/${waiting.id}/resume`));
    await until('it to start', () => getJob(waiting.id), (j) => j.status !== 'queued', WAIT);
    await json<Job>(api.post(`/v1/speech-to-text/${waiting.id}/cancel`));
    expect((await finished(waiting.id)).status).toBe('cancelled');
  }, scaled(300_000));

  it('pausing or resuming a finished job is 409 conflict', async () => {
    expect(await expectError(api.post(`/v1/speech-to-text/${reference.id}/pause`), 409, 'conflict')).toMatch(/succeeded/);
    await expectError(api.post(`/v1/speech-to-text/${reference.id}/resume`), 409, 'conflict');
  });
});

describe('retry of a cancelled transcription', () => {
  it('continues from its checkpoint: committed segments are copied, not recognised again', async () => {
    const job = await submit();
    await until('some segments', () => segments(job.id), (s) => s.data.length >= 4, { ...WAIT, timeoutMs: scaled(120_000) });
    await json<Job>(api.post(`/v1/speech-to-text/${job.id}/cancel`));
    expect((await finished(job.id)).status).toBe('cancelled');
    const committed = await allSegments(job.id);
    const retried = await json<Job>(api.post(`/v1/speech-to-text/${job.id}/retry`));
    expect(retried.id).not.toBe(job.id);
    expect(retried.progress).toBeGreaterThan(0);
    expect((await allSegments(retried.id)).slice(0, committed.length)).toEqual(committed);
    const done = await finished(retried.id);
    expect(done.status).toBe('succeeded');
    expect(done.result).toEqual(reference.result);
    expect(done.resumed_from).toBeGreaterThan(0);
    const counts = recognitions(retried.id);
    for (const segment of committed) expect(counts.has(segment.index)).toBe(false);
  }, scaled(300_000));
});

describe('bad input', () => {
  it('unknown job, another account\'s job, another product\'s route: 404 not_found', async () => {
    await expectError(api.get('/v1/speech-to-text/job_nope/segments'), 404, 'not_found');
    await expectError(api.post('/v1/speech-to-text/job_nope/pause'), 404, 'not_found');
    await expectError(api.post('/v1/speech-to-text/job_nope/resume'), 404, 'not_found');
    const other = new Client(svc.url, (await svc.service.keys.createKey('someone-else')));
    await expectError(other.get(`/v1/speech-to-text/${reference.id}/segments`), 404, 'not_found');
    await expectError(other.post(`/v1/speech-to-text/${reference.id}/pause`), 404, 'not_found');
    await expectError(other.post(`/v1/speech-to-text/${reference.id}/resume`), 404, 'not_found');
    await expectError(api.post(`/v1/text-to-speech/${reference.id}/pause`), 404, 'not_found');
    await expectError(api.post(`/v1/voice-isolator/${reference.id}/resume`), 404, 'not_found');
    await expectError(api.get(`/v1/text-to-speech/${reference.id}/segments`), 404, 'not_found');
    const tts = await json<Job>(api.postJson('/v1/text-to-speech', { model: 'test-tts', text: 'hello' }));
    await expectError(api.get(`/v1/speech-to-text/${tts.id}/segments`), 404, 'not_found');
    await expectError(api.post(`/v1/speech-to-text/${tts.id}/pause`), 404, 'not_found');
  });

  it('`after` and `limit` must be non-negative integers (limit 1..1000): 400 invalid_request', async () => {
    for (const after of ['-1', 'abc', '1.5', '', '1e3', '0x10', '99999999999999999999']) {
      expect(await expectError(api.get(`/v1/speech-to-text/${reference.id}/segments?after=${encodeURIComponent(after)}`), 400, 'invalid_request')).toMatch(/after/);
    }
    expect(await expectError(api.get(`/v1/speech-to-text/${reference.id}/segments?after=1&after=2`), 400, 'invalid_request')).toMatch(/after/);
    for (const limit of ['0', '1001', 'x']) {
      expect(await expectError(api.get(`/v1/speech-to-text/${reference.id}/segments?limit=${limit}`), 400, 'invalid_request')).toMatch(/limit/);
    }
    expect((await segments(reference.id, '?after=0&limit=1')).data[0]?.index).toBe(1);
  });

  it('no key: 401', async () => {
    const anonymous = new Client(svc.url, null);
    await expectError(anonymous.get(`/v1/speech-to-text/${reference.id}/segments`), 401, 'unauthorized');
    await expectError(anonymous.post(`/v1/speech-to-text/${reference.id}/pause`), 401, 'unauthorized');
  });
});
