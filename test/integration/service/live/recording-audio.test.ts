/**
 * GET /v1/speech-to-text/{id}/audio over real HTTP (127.0.0.1, SQLite file, worker processes): the whole recording,
 * byte ranges as an <audio> element asks for them, 416 past the end, the key as a header or (this route only) as
 * `api_key`, ownership (another account's, an unknown, another product's job → 404), and 410 recording_deleted once
 * recording retention or the dictation link's expiry deleted the file — through the real maintenance sweep.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../../../src-main/common/api-types.js';
import type { JobEngine } from '../../../../src-main/jobs/engine/job-service.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { audio, Client, expectError, json } from '../../../helpers/http-client.js';
import { pcm16WavHeader } from '../../../../src-main/engines/audio/wav-header.js';

let t: TestService;
let api: Client;
let accountId: string;

/** A real 16-bit mono WAV of `samples` samples (44-byte header + PCM), so the served type is sniffed, not guessed. */
function wav(samples: number, rate = 16_000): Uint8Array<ArrayBuffer> {
  const pcm = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) pcm.writeInt16LE(Math.round(Math.sin(i / 8) * 8000), i * 2);
  return new Uint8Array(Buffer.concat([pcm16WavHeader(rate, 1, pcm.length), pcm])) as Uint8Array<ArrayBuffer>;
}

const recording = wav(4000);
const audioPath = (id: string): string => `/v1/speech-to-text/${id}/audio`;

async function transcribe(name: string, data: Uint8Array<ArrayBuffer>): Promise<Job> {
  const job = await json<Job>(api.postForm('/v1/speech-to-text', [{ name: 'model', value: 'test-asr' }, { name: 'file', file: { name, data } }]));
  for (let current = job; ; current = await json<Job>(api.get(`/v1/speech-to-text/${job.id}`))) {
    if (current.status === 'succeeded') return current;
    expect(['queued', 'running']).toContain(current.status);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function bytes(response: Response): Promise<Uint8Array> {
  return new Uint8Array(await response.arrayBuffer());
}

beforeAll(async () => {
  t = await startTestService({ holdSeconds: 10 });
  api = new Client(t.url, t.key);
  accountId = (await json<{ account_id: string }>(api.get('/v1/session'))).account_id;
});
afterAll(async () => {
  await t?.stop();
});

describe('GET /v1/speech-to-text/{id}/audio', () => {
  let job: Job;
  beforeAll(async () => {
    job = await transcribe('interview.wav', recording);
  });

  it('streams the whole kept upload with its sniffed type, length and Accept-Ranges', async () => {
    const response = await api.get(audioPath(job.id));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/wav');
    expect(response.headers.get('content-length')).toBe(String(recording.length));
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('content-disposition')).toMatch(/^inline; filename="interview.wav"/);
    expect(Buffer.from(await bytes(response)).equals(Buffer.from(recording))).toBe(true);
  });

  it('answers byte ranges with 206 and Content-Range (what <audio> sends to seek)', async () => {
    const middle = await api.get(audioPath(job.id), { range: 'bytes=100-199' });
    expect(middle.status).toBe(206);
    expect(middle.headers.get('content-range')).toBe(`bytes 100-199/${recording.length}`);
    expect(middle.headers.get('content-length')).toBe('100');
    expect(Buffer.from(await bytes(middle)).equals(Buffer.from(recording.subarray(100, 200)))).toBe(true);

    const open = await api.get(audioPath(job.id), { range: `bytes=${recording.length - 10}-` });
    expect(open.status).toBe(206);
    expect(Buffer.from(await bytes(open)).equals(Buffer.from(recording.subarray(recording.length - 10)))).toBe(true);

    const suffix = await api.get(audioPath(job.id), { range: 'bytes=-4' });
    expect(suffix.headers.get('content-range')).toBe(`bytes ${recording.length - 4}-${recording.length - 1}/${recording.length}`);
    expect((await bytes(suffix)).length).toBe(4);

    const multi = await api.get(audioPath(job.id), { range: 'bytes=0-1,5-6' }); // not served as ranges: the whole file
    expect(multi.status).toBe(200);
    expect((await bytes(multi)).length).toBe(recording.length);
  });

  it('answers 416 with Content-Range bytes */size for a range past the end', async () => {
    const response = await api.get(audioPath(job.id), { range: `bytes=${recording.length}-` });
    expect(response.status).toBe(416);
    expect(response.headers.get('content-range')).toBe(`bytes */${recording.length}`);
    await response.arrayBuffer();
  });

  it('takes the key as api_key on this route only (an <audio> element cannot send headers)', async () => {
    const anonymous = new Client(t.url, null);
    const viaQuery = await anonymous.get(`${audioPath(job.id)}?api_key=${encodeURIComponent(t.key)}`, { range: 'bytes=0-3' });
    expect(viaQuery.status).toBe(206);
    expect(Buffer.from(await bytes(viaQuery)).toString('latin1')).toBe('RIFF');
    await expectError(anonymous.get(audioPath(job.id)), 401, 'unauthorized');
    await expectError(anonymous.get(`${audioPath(job.id)}?api_key=vdk_wrong_key_000000000000`), 401, 'unauthorized');
    await expectError(anonymous.get(`${audioPath(job.id)}?api_key=${t.key}&api_key=${t.key}`), 400, 'invalid_request');
    // Nowhere else: the job itself still needs the header.
    await expectError(anonymous.get(`/v1/speech-to-text/${job.id}?api_key=${encodeURIComponent(t.key)}`), 401, 'unauthorized');
  });

  it('is 404 for another account’s job, an unknown job, and a job of another product', async () => {
    const guest = new Client(t.url, (await t.service.keys.createKey('guest')));
    await expectError(guest.get(audioPath(job.id)), 404, 'not_found');
    await expectError(new Client(t.url, null).get(`${audioPath(job.id)}?api_key=${encodeURIComponent(guest.key!)}`), 404, 'not_found');
    await expectError(api.get(audioPath('job_unknown')), 404, 'not_found');
    const speech = await json<Job>(api.postJson('/v1/text-to-speech', { model: 'test-tts', text: 'hello' }));
    await expectError(api.get(audioPath(speech.id)), 404, 'not_found');
  });

  it('types a file whose bytes name no container by its name', async () => {
    const flac = await transcribe('memo.flac', audio(600));
    const response = await api.get(audioPath(flac.id));
    expect(response.headers.get('content-type')).toBe('audio/flac');
    expect((await bytes(response)).length).toBe(600);
  });

  it('is 410 recording_deleted once recording retention deleted the upload; the transcript stays', async () => {
    const old = await transcribe('old.wav', recording);
    expect((await api.get(audioPath(old.id), { range: 'bytes=0-0' })).status).toBe(206);
    await json(fetch(`${t.url}/v1/settings/retention`, { method: 'PUT', headers: api.headers({ 'content-type': 'application/json' }), body: JSON.stringify({ recordings_hours: 1 }) }));
    // The job ended two hours ago (its row aged in place), so the real sweep deletes its recording.
    t.service.db.prepare('UPDATE jobs SET finished_at = ? WHERE id = ?').run(new Date(Date.now() - 2 * 3_600_000).toISOString(), old.id);
    await (t.service.jobs as JobEngine).runMaintenance();
    const message = await expectError(api.get(audioPath(old.id)), 410, 'recording_deleted');
    expect(message).toMatch(/recording retention/);
    expect((await json<Job>(api.get(`/v1/speech-to-text/${old.id}`))).status).toBe('succeeded');
    expect((await api.get(`/v1/speech-to-text/${old.id}/transcript`)).status).toBe(200);
  });

  it('serves a dictation’s recording, and 410 once its one-day link expired and the sweep deleted it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'voxdesk-dictation-'));
    const path = join(dir, 'session.wav');
    writeFileSync(path, recording);
    const dictation = await t.service.jobs.recordDictation({
      accountId,
      modelId: 'test-asr',
      name: 'Dictation',
      language: 'en',
      params: { response_format: 'verbose_json' },
      result: { text: 'hello there', language: 'en', duration: 0.25, segments: [{ id: 0, start: 0, end: 0.25, text: 'hello there' }] } as never,
      durationSeconds: 0.25,
      recording: { path, sampleRate: 16_000 },
    });
    const response = await api.get(audioPath(dictation.id), { range: 'bytes=0-11' });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-type')).toBe('audio/wav');
    expect(Buffer.from(await bytes(response)).toString('latin1', 8, 12)).toBe('WAVE');

    t.service.db.prepare('UPDATE artifacts SET expires_at = ? WHERE job_id = ?').run(new Date(Date.now() - 1000).toISOString(), dictation.id);
    await (t.service.jobs as JobEngine).runMaintenance();
    expect(await expectError(api.get(audioPath(dictation.id)), 410, 'recording_deleted')).toMatch(/one day/);
    rmSync(dir, { recursive: true, force: true });
  });
});
