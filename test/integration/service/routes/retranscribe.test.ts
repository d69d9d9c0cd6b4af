/**
 * POST /v1/speech-to-text/{id}/retranscribe over real HTTP with real PocketSphinx on the shared Hi-Fi TTS clips: the
 * range snaps to segment edges, the range job is priced and charged as a recording of the range's length (ledger =
 * quote), its result becomes the next revision of the transcript it came from while revision 0 stays as it was, and
 * every bad request is a clear 4xx that creates no job and charges nothing.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, Quote } from '../../../../src-main/common/api-types.js';
import { toMicro } from '../../../../src-main/common/pricing.js';
import type { TranscriptRevision } from '../../../../src-main/common/transcript-types.js';
import { Client, expectError, json } from '../../../helpers/http-client.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { requireCommand, SHARED } from '../../../helpers/system.js';
import { scaled } from '../../../helpers/time-scale.js';

const MODEL = 'pocketsphinx-en-us';
const PRICE = { request_fee_usd: 0.05, per_minute_usd: 0.01, options: {} };

let dir: string;
let t: TestService;
let api: Client;
let recording: Uint8Array<ArrayBuffer>;
let source: Job;
let original: TranscriptRevision;

/** Four Hi-Fi TTS sentences with 1.5 s of silence between them: PocketSphinx makes a segment of each. */
function fourSentences(): string {
  const sox = requireCommand('sox');
  const clips = readdirSync(join(SHARED, 'audio/hifitts-6097')).filter((f) => f.endsWith('.wav')).sort().slice(0, 4);
  const pause = join(dir, 'pause.wav');
  execFileSync(sox, ['-n', '-r', '16000', '-c', '1', '-b', '16', pause, 'trim', '0', '1.5']);
  const parts = clips.flatMap((clip, i) => {
    const out = join(dir, `clip-${i}.wav`);
    execFileSync(sox, [join(SHARED, 'audio/hifitts-6097', clip), '-r', '16000', '-c', '1', '-b', '16', out]);
    return [out, pause];
  });
  const out = join(dir, 'four.wav');
  execFileSync(sox, [...parts, out]);
  return out;
}

const accountId = (): string => t.service.repos.accounts.findKey(t.key)!.account.id;
const ledger = (jobId: string) => t.service.repos.ledger.forAccount(accountId()).filter((row) => row.job_id === jobId);
const jobCount = async (): Promise<number> => (await json<{ data: Job[] }>(api.get('/v1/jobs?limit=100'))).data.length;
const transcript = (id: string, query = ''): Promise<TranscriptRevision> => json<TranscriptRevision>(api.get(`/v1/speech-to-text/${id}/transcript${query}`));
const retranscribe = (id: string, body: unknown, client = api): Promise<Response> => client.postJson(`/v1/speech-to-text/${id}/retranscribe`, body);

async function finished(job: Job): Promise<Job> {
  let current = job;
  while (current.status === 'queued' || current.status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 100));
    current = await json<Job>(api.get(`/v1/speech-to-text/${current.id}`));
  }
  return current;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-retranscribe-'));
  recording = new Uint8Array(readFileSync(fourSentences()));
  const pricingFile = join(dir, 'pricing.json');
  writeFileSync(pricingFile, JSON.stringify({ models: { [MODEL]: PRICE } }));
  t = await startTestService({ holdSeconds: 120, pricingFile, workers: 1 });
  api = new Client(t.url, t.key);
  source = await finished(
    await json<Job>(api.postForm('/v1/speech-to-text', [
      { name: 'model', value: MODEL },
      { name: 'file', file: { name: 'four.wav', data: recording } },
    ])),
  );
  expect(source.status).toBe('succeeded');
  original = await transcript(source.id);
  expect(original.segments.length).toBeGreaterThanOrEqual(4);
}, scaled(300_000));
afterAll(async () => {
  await t?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('re-transcribing a range', () => {
  it('snaps to segment edges, is charged as the range\'s length, and makes the next revision with the original kept', async () => {
    const [a, b] = [original.segments[1]!, original.segments[2]!];
    // From inside segment 1 to inside segment 2: the whole of both is taken.
    const job = await finished(await json<Job>(retranscribe(source.id, { start: a.start + 0.2, end: b.end - 0.2, model: MODEL })));
    expect(job.status).toBe('succeeded');
    const seconds = Math.round((b.end - a.start) * 1000) / 1000;
    expect(Number(job.duration_seconds)).toBeCloseTo(seconds, 3);
    expect(job.name).toMatch(/^four\.wav \(0:\d\d–0:\d\d\)$/);

    // Charged exactly what the catalogue quotes for the range's seconds (quote == charge).
    const quote = await json<Quote>(api.get(`/v1/models/${MODEL}/quote?seconds=${job.duration_seconds}`));
    const charged = ledger(job.id).reduce((sum, row) => sum + row.amount_usd_micro, 0);
    expect(charged).toBe(toMicro(quote.total_usd));
    expect(quote.usage_usd).toBeCloseTo((seconds / 60) * PRICE.per_minute_usd, 6);

    // The range job's own transcript, shifted to the recording's clock, replaces segments 1–2 as revision 1.
    const own = await transcript(job.id);
    expect(own.segments.length).toBeGreaterThan(0);
    const latest = await transcript(source.id);
    expect(latest.revision).toBe(1);
    const middle = latest.segments.filter((s) => s.start >= a.start && s.end <= b.end + 0.001);
    expect(middle.map((s) => s.text)).toEqual(own.segments.map((s) => s.text));
    for (const [i, s] of middle.entries()) {
      expect(s.start).toBeCloseTo(own.segments[i]!.start + a.start, 3);
      expect(s.words[0]!.start).toBeCloseTo(own.segments[i]!.words[0]!.start + a.start, 3);
    }
    // What lies outside the range is untouched, and every segment is numbered in time order.
    expect(latest.segments[0]).toEqual(original.segments[0]);
    expect(latest.segments.at(-1)!.text).toBe(original.segments.at(-1)!.text);
    expect(latest.segments.map((s) => s.index)).toEqual(latest.segments.map((_, i) => i));
    // Revision 0 is the engine's original, as it was; the source job says which revision is the latest.
    expect(await transcript(source.id, '?revision=0')).toEqual({ ...original, latest_revision: 1 });
    expect((await json<Job>(api.get(`/v1/speech-to-text/${source.id}`))).transcript_revision).toBe(1);
    // Search finds the new text at its new place.
    const word = middle[0]!.words.find((w) => w.word.length > 3)!.word;
    const hits = await json<{ data: { job_id: string; segment_index: number | null }[] }>(api.get(`/v1/search?q=${encodeURIComponent(word)}`));
    expect(hits.data).toContainEqual(expect.objectContaining({ job_id: source.id, segment_index: middle[0]!.index }));
  }, scaled(300_000));

  it('refuses every bad request with a clear 4xx, creating no job and charging nothing', async () => {
    const jobs = await jobCount();
    const charges = t.service.repos.ledger.forAccount(accountId()).length;
    const a = original.segments[0]!;
    const ok = { start: a.start, end: a.end, model: MODEL };
    await expectError(retranscribe('job_unknown', ok), 404, 'not_found');
    await expectError(api.post(`/v1/speech-to-text/${source.id}/retranscribe`, { 'content-type': 'application/json' }, '{"start":'), 400, 'invalid_json');
    await expectError(retranscribe(source.id, { ...ok, end: a.start }), 400, 'invalid_request');
    await expectError(retranscribe(source.id, { ...ok, start: -1 }), 400, 'invalid_request');
    await expectError(retranscribe(source.id, { start: 0, end: 1 }), 400, 'model_required');
    await expectError(retranscribe(source.id, { ...ok, model: 'no-such-model' }), 400, 'invalid_request');
    await expectError(retranscribe(source.id, { ...ok, model: 'test-tts' }), 400, 'invalid_params');
    await expectError(retranscribe(source.id, { ...ok, params: { no_such_param: 1 } }), 400, 'unsupported_param');
    await expectError(retranscribe(source.id, { ...ok, colour: 'red' }), 400, 'unsupported_param');
    const end = original.segments.at(-1)!.end;
    expect(await expectError(retranscribe(source.id, { ...ok, start: end + 5, end: end + 10 }), 400, 'invalid_request')).toMatch(/no segment lies between/);

    // Another account's transcription is not there for this key.
    const other = new Client(t.url, await t.service.keys.createKey('someone-else'));
    await expectError(retranscribe(source.id, ok, other), 404, 'not_found');

    // A transcription that did not succeed has no transcript to put a range back into.
    const failed = await finished(await json<Job>(api.postForm('/v1/speech-to-text', [
      { name: 'model', value: 'test-asr' },
      { name: 'params', value: JSON.stringify({ behaviour: 'fail' }) },
      { name: 'file', file: { name: 'x.wav', data: recording.slice(0, 20_000) } },
    ])));
    expect(failed.status).toBe('failed');
    await expectError(retranscribe(failed.id, ok), 409, 'conflict');

    expect(await jobCount()).toBe(jobs + 1); // only the failed job made above
    expect(t.service.repos.ledger.forAccount(accountId()).length).toBe(charges);
  }, scaled(120_000));

  it('a recording deleted meanwhile is 410 recording_deleted, and nothing is created', async () => {
    const job = await finished(await json<Job>(api.postForm('/v1/speech-to-text', [
      { name: 'model', value: MODEL },
      { name: 'file', file: { name: 'gone.wav', data: recording } },
    ])));
    const first = (await transcript(job.id)).segments[0]!;
    const input = JSON.parse(t.service.repos.jobs.get(job.id)!.input_json) as { filePath: string };
    unlinkSync(input.filePath);
    const jobs = await jobCount();
    expect(await expectError(retranscribe(job.id, { start: first.start, end: first.end, model: MODEL }), 410, 'recording_deleted')).toMatch(/no range of it can be re-transcribed/);
    expect(await jobCount()).toBe(jobs);
  }, scaled(300_000));
});
