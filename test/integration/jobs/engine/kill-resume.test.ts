/**
 * The acceptance test of checkpoints: a long recording transcribed by `voxdesk serve` (a real process, the tiny NeMo
 * CTC model imported with `voxdesk models import`, Silero VAD) while the whole service is SIGKILLed twice at
 * different points. The final transcript equals an uninterrupted run's, segment for segment, and the engine's own
 * count of recognised segments (VOXDESK_TEST_RECOGNITION_LOG, written by the worker) shows that no segment committed
 * before a kill was recognised again, and that each resumed run started right after the last committed segment.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, SegmentList } from '../../../../src-main/common/api-types.js';
import { isTerminal } from '../../../../src-main/common/job-states.js';
import { openDatabase } from '../../../../src-main/store/database.js';
import { ROOT, startServeProcess, type ServeProcess } from '../../../helpers/service.js';
import { SHARED } from '../../../helpers/system.js';
import { Client, json } from '../../../helpers/http-client.js';
import { makeLongRecording } from '../../../helpers/long-recording.js';
import { scaled } from '../../../helpers/time-scale.js';
import { until } from '../../../helpers/wait.js';

const KEY = 'vdk_' + 'K'.repeat(32);
let dir = '';
let dataDir = '';
let log = '';
let recording: Uint8Array<ArrayBuffer>;
const running: ServeProcess[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-kill-resume-'));
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

async function kill(target: ServeProcess): Promise<void> {
  target.child.kill('SIGKILL');
  await target.exited;
}

/** Segment indexes committed for a job, read from the database file (the service is dead). */
function committed(jobId: string): { idx: number; resume_seconds: number }[] {
  const db = openDatabase(join(dataDir, 'voxdesk.db'), { readonly: true });
  try {
    return db.prepare('SELECT idx, resume_seconds FROM job_segments WHERE job_id = ? ORDER BY idx').all(jobId) as { idx: number; resume_seconds: number }[];
  } finally {
    db.close();
  }
}

function engineLog(jobId: string): { recognised: Map<number, number>; resumes: number[] } {
  const recognised = new Map<number, number>();
  const resumes: number[] = [];
  for (const line of readFileSync(log, 'utf8').split('\n').filter(Boolean)) {
    const entry = JSON.parse(line) as { job: string; index?: number; resume_at?: number };
    if (entry.job !== jobId) continue;
    if (entry.index !== undefined) recognised.set(entry.index, (recognised.get(entry.index) ?? 0) + 1);
    if (entry.resume_at !== undefined) resumes.push(entry.resume_at);
  }
  return { recognised, resumes };
}

const upload = (name: string) => [
  { name: 'model', value: 'tiny-ctc' },
  { name: 'name', value: name },
  { name: 'file', file: { name, data: recording } },
];
const lastIndex = (api: Client, id: string): Promise<number> =>
  json<SegmentList>(api.get(`/v1/speech-to-text/${id}/segments?limit=1000`)).then((s) => s.next_after ?? -1);

describe('voxdesk serve SIGKILLed twice during a long transcription', () => {
  it('ends with one transcript equal to an uninterrupted run\'s, and never recognises a committed segment again', async () => {
    // The uninterrupted run, for reference.
    let { serve: first, api } = await serve();
    const reference = await json<Job>(api.postForm('/v1/speech-to-text', upload('reference.wav')));
    const expected = await until('the reference run', () => json<Job>(api.get(`/v1/speech-to-text/${reference.id}`)), (j) => isTerminal(j.status), WAIT);
    expect(expected.status).toBe('succeeded');
    // The engine's committed segments; the result reads them in sentences (sentence-segments.ts), at least as many.
    const total = (await json<SegmentList>(api.get(`/v1/speech-to-text/${reference.id}/segments?limit=1000`))).data.length;
    expect(total).toBeGreaterThanOrEqual(15);
    expect(expected.result!.segments!.length).toBeGreaterThanOrEqual(total);

    // The same recording, killed after a few segments…
    const job = await json<Job>(api.postForm('/v1/speech-to-text', upload('meeting.wav')));
    await until('5 committed segments', () => lastIndex(api, job.id), (n) => n >= 4, WAIT);
    await kill(first);
    const beforeFirstKill = committed(job.id);
    expect(beforeFirstKill.length).toBeGreaterThanOrEqual(5);
    expect(beforeFirstKill.length).toBeLessThan(total);

    // …restarted: the segments already committed are there at once; killed again further on…
    ({ serve: first, api } = await serve());
    const shown = await json<SegmentList>(api.get(`/v1/speech-to-text/${job.id}/segments?limit=1000`));
    expect(shown.next_after).toBeGreaterThanOrEqual(beforeFirstKill.length - 1);
    await until('6 more segments', () => lastIndex(api, job.id), (n) => n >= beforeFirstKill.length + 5, WAIT);
    await kill(first);
    const beforeSecondKill = committed(job.id);
    expect(beforeSecondKill.length).toBeGreaterThan(beforeFirstKill.length);
    expect(beforeSecondKill.length).toBeLessThan(total);

    // …and restarted once more, to the end.
    ({ serve: first, api } = await serve());
    const done = await until('the job to finish', () => json<Job>(api.get(`/v1/speech-to-text/${job.id}`)), (j) => isTerminal(j.status), WAIT);
    expect(done.status).toBe('succeeded');
    expect(done.error_code).toBeNull();
    // The same sentences as the uninterrupted run, in the result and in the transcript people read.
    expect(done.result).toEqual(expected.result);
    const transcript = (id: string): Promise<{ segments: unknown[] }> => json<{ segments: unknown[] }>(api.get(`/v1/speech-to-text/${id}/transcript`));
    expect((await transcript(job.id)).segments).toEqual((await transcript(reference.id)).segments);
    expect(done.resumed_from).toBeCloseTo(beforeSecondKill[beforeSecondKill.length - 1]!.resume_seconds, 3);
    const segments = await json<SegmentList>(api.get(`/v1/speech-to-text/${job.id}/segments?limit=1000`));
    const referenceSegments = await json<SegmentList>(api.get(`/v1/speech-to-text/${reference.id}/segments?limit=1000`));
    expect(segments).toEqual(referenceSegments);

    // The engine's own count: what was committed before a kill was recognised exactly once, and each run resumed
    // right after the last committed segment (decoded audio before it was skipped, not segmented or recognised).
    const { recognised, resumes } = engineLog(job.id);
    for (const { idx } of beforeSecondKill) expect(recognised.get(idx), `segment ${idx}`).toBe(1);
    expect(resumes).toEqual([beforeFirstKill, beforeSecondKill].map((c) => c[c.length - 1]!.resume_seconds));
    expect([...recognised.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: total }, (_, i) => i));
    // At most the segment in flight at each kill was recognised twice.
    expect([...recognised.values()].reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(total + 2);
    const db = openDatabase(join(dataDir, 'voxdesk.db'), { readonly: true });
    expect(db.prepare('SELECT attempts FROM jobs WHERE id = ?').get(job.id)).toEqual({ attempts: 1 });
    db.close();
    await kill(first);
  }, scaled(600_000));
});
