import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../../../src-main/common/api-types.js';
import { requireCommand, SHARED } from '../../../helpers/system.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { wordErrorRate } from '../../../helpers/engine-context.js';
import { scaled } from '../../../helpers/time-scale.js';
import { until } from '../../../helpers/wait.js';

requireCommand('pocketsphinx_continuous', 'pocketsphinx');
const JFK = join(SHARED, 'audio/jfk.wav');
let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({ holdSeconds: 120 });
});
afterAll(async () => svc?.stop());

function post(file: string, params?: Record<string, unknown>, search = ''): Promise<Response> {
  const form = new FormData();
  form.append('model', 'pocketsphinx-en-us');
  if (params) form.append('params', JSON.stringify(params));
  form.append('file', new Blob([readFileSync(file)], { type: 'audio/wav' }), 'jfk.wav');
  return fetch(`${svc.url}/v1/speech-to-text${search}`, { method: 'POST', headers: { authorization: `Bearer ${svc.key}` }, body: form });
}

async function jobCount(): Promise<number> {
  return ((await (await fetch(`${svc.url}/v1/jobs?limit=100`, { headers: { authorization: `Bearer ${svc.key}` } })).json()) as { data: unknown[] }).data.length;
}

async function transcribe(file: string, params?: Record<string, unknown>): Promise<Job> {
  const response = await post(file, params);
  expect(response.status).toBe(200);
  let job = (await response.json()) as Job;
  while (job.status === 'queued' || job.status === 'running') {
    await new Promise((r) => setTimeout(r, 500));
    job = (await (await fetch(`${svc.url}/v1/speech-to-text/${job.id}`, { headers: { authorization: `Bearer ${svc.key}` } })).json()) as Job;
  }
  return job;
}

describe('speech to text through the service (PocketSphinx in a worker process)', () => {
  it('the catalogue lists pocketsphinx-en-us with its params schema', async () => {
    const row = (await (await fetch(`${svc.url}/v1/models/pocketsphinx-en-us`)).json()) as Record<string, unknown>;
    expect(row).toMatchObject({ id: 'pocketsphinx-en-us', status: 'available', capability: 'asr', languages: ['en'] });
  });

  it('transcribes jfk.wav: duration measured, words timed, SRT export', async () => {
    const job = await transcribe(JFK);
    expect(job.status).toBe('succeeded');
    expect(Number(job.duration_seconds)).toBeCloseTo(11, 3);
    expect(wordErrorRate('And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.', job.result!.text!)).toBeLessThan(0.75);
    expect(job.result!.words!.length).toBeGreaterThan(5);
    const srt = await (await fetch(`${svc.url}/v1/speech-to-text/${job.id}/export?format=srt`, { headers: { authorization: `Bearer ${svc.key}` } })).text();
    expect(srt).toMatch(/^1\n00:00:0\d,\d{3} --> 00:00:\d\d,\d{3}\n/);
  }, scaled(180_000));

  it('holds the POST until the job ends, unless asked not to wait: then it answers with the queued job', async () => {
    const held = (await (await post(JFK)).json()) as Job;
    expect(held.status).toBe('succeeded');

    const prompt = await post(JFK, undefined, '?wait=false');
    expect(prompt.status).toBe(200);
    const created = (await prompt.json()) as Job;
    expect(created.status).toBe('queued');
    const read = async (): Promise<Job> => (await (await fetch(`${svc.url}/v1/speech-to-text/${created.id}`, { headers: { authorization: `Bearer ${svc.key}` } })).json()) as Job;
    const job = await until('the job answered at once to end', read, (j) => j.status !== 'queued' && j.status !== 'running', { everyMs: 250 });
    expect(job.status).toBe('succeeded');
    expect(job.result!.text).toMatch(/country/i);

    // A wait that is not a boolean is refused before anything is made.
    const before = await jobCount();
    const bad = await post(JFK, undefined, '?wait=later');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^wait must be true or false/) });
    expect(await jobCount()).toBe(before);
  }, scaled(180_000));

  it('a corrupt upload fails the job with audio_decode_failed', async () => {
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'voxdesk-stt-bad-'));
    const bad = join(dir, 'bad.wav');
    writeFileSync(bad, 'RIFF....WAVEfmt but then nothing sensible at all '.repeat(40));
    const job = await transcribe(bad);
    expect(job.status).toBe('failed');
    expect(job.error_code).toBe('audio_decode_failed');
    const { rmSync } = await import('node:fs');
    rmSync(dir, { recursive: true, force: true });
  }, scaled(180_000));
});
