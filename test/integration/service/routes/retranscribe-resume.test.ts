/**
 * A re-transcribed range is resumable like any transcription: `voxdesk serve` (a real process, the tiny NeMo CTC
 * model and Silero VAD) is SIGKILLed while the range job runs; after the restart it continues after its last
 * committed segment (the worker cuts the very same samples again), ends with the result of an uninterrupted run of the
 * same range, and puts it into the transcript as the next revision.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, SegmentList } from '../../../../src-main/common/api-types.js';
import { isTerminal } from '../../../../src-main/common/job-states.js';
import type { TranscriptRevision } from '../../../../src-main/common/transcript-types.js';
import { Client, json } from '../../../helpers/http-client.js';
import { makeLongRecording } from '../../../helpers/long-recording.js';
import { ROOT, startServeProcess, type ServeProcess } from '../../../helpers/service.js';
import { SHARED } from '../../../helpers/system.js';
import { scaled } from '../../../helpers/time-scale.js';
import { until } from '../../../helpers/wait.js';

const KEY = 'vdk_' + 'R'.repeat(32);
let dir = '';
let dataDir = '';
let log = '';
let recording: Uint8Array<ArrayBuffer>;
const running: ServeProcess[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-retranscribe-resume-'));
  dataDir = join(dir, 'data');
  log = join(dir, 'recognised.jsonl');
  recording = new Uint8Array(readFileSync(makeLongRecording(dir)));
  const voxdesk = (...args: string[]): string => execFileSync(process.execPath, [join(ROOT, 'bin/voxdesk.js'), ...args, '--data-dir', dataDir], { encoding: 'utf8' });
  voxdesk('models', 'import', join(SHARED, 'models/tiny/tiny-nemo-ctc'), '--id', 'tiny-ctc', '--language', 'en');
  voxdesk('models', 'import', join(SHARED, 'models/silero_vad_v5.onnx'));
}, scaled(120_000));
afterAll(() => {
  for (const serve of running) serve.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function serve(): Promise<{ serve: ServeProcess; api: Client }> {
  const started = await startServeProcess(dataDir, ['--workers', '1', '--hold-seconds', '0'], {
    VOXDESK_API_KEY: KEY,
    VOXDESK_TEST_RECOGNITION_LOG: log,
    VOXDESK_TEST_SEGMENT_DELAY_MS: '150',
  });
  running.push(started);
  return { serve: started, api: new Client(started.url, KEY) };
}

/** This file's waits (helpers/wait.ts): long enough for a killed service to start again, read often enough to catch a short state. */
const WAIT = { timeoutMs: scaled(300_000), everyMs: 40 };

const finished = (api: Client, id: string): Promise<Job> => until(`job ${id}`, () => json<Job>(api.get(`/v1/speech-to-text/${id}`)), (j) => isTerminal(j.status), WAIT);
const lastIndex = (api: Client, id: string): Promise<number> =>
  json<SegmentList>(api.get(`/v1/speech-to-text/${id}/segments?limit=1000`)).then((s) => s.next_after ?? -1);

function recognised(jobId: string): Map<number, number> {
  const counts = new Map<number, number>();
  for (const line of readFileSync(log, 'utf8').split('\n').filter(Boolean)) {
    const entry = JSON.parse(line) as { job: string; index?: number };
    if (entry.job === jobId && entry.index !== undefined) counts.set(entry.index, (counts.get(entry.index) ?? 0) + 1);
  }
  return counts;
}

describe('a range job SIGKILLed with the service', () => {
  it('resumes after its last committed segment and gives the uninterrupted result as the next revision', async () => {
    let { serve: node, api } = await serve();
    const source = await finished(api, (await json<Job>(api.postForm('/v1/speech-to-text', [
      { name: 'model', value: 'tiny-ctc' },
      { name: 'file', file: { name: 'meeting.wav', data: recording } },
    ]))).id);
    expect(source.status).toBe('succeeded');
    const segments = (await json<TranscriptRevision>(api.get(`/v1/speech-to-text/${source.id}/transcript`))).segments;
    expect(segments.length).toBeGreaterThanOrEqual(15);
    const range = { start: segments[2]!.start, end: segments[segments.length - 3]!.end, model: 'tiny-ctc' };

    // The range uninterrupted, for reference: revision 1.
    const reference = await finished(api, (await json<Job>(api.postJson(`/v1/speech-to-text/${source.id}/retranscribe`, range))).id);
    expect(reference.status).toBe('succeeded');
    const total = reference.result!.segments!.length;
    expect(total).toBeGreaterThanOrEqual(6);
    const first = await json<TranscriptRevision>(api.get(`/v1/speech-to-text/${source.id}/transcript`));
    expect(first.revision).toBe(1);

    // The same range again, the whole service killed after a few of its segments…
    const job = await json<Job>(api.postJson(`/v1/speech-to-text/${source.id}/retranscribe`, range));
    await until('3 committed segments', () => lastIndex(api, job.id), (n) => n >= 2, WAIT);
    node.child.kill('SIGKILL');
    await node.exited;
    const before = recognised(job.id);
    expect(before.size).toBeLessThan(total);

    // …and started again: it continues, and its result and the revision it makes equal the uninterrupted run's.
    ({ serve: node, api } = await serve());
    const done = await finished(api, job.id);
    expect(done.status).toBe('succeeded');
    expect(done.result).toEqual(reference.result);
    expect(done.duration_seconds).toBe(reference.duration_seconds);
    expect(done.resumed_from).not.toBeNull();
    const after = recognised(job.id);
    expect([...after.values()].reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(total + 1); // at most the one in flight twice
    const second = await json<TranscriptRevision>(api.get(`/v1/speech-to-text/${source.id}/transcript`));
    expect(second.revision).toBe(2);
    expect(second.segments).toEqual(first.segments);
    node.child.kill('SIGKILL');
    await node.exited;
  }, scaled(600_000));
});
