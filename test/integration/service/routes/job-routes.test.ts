/**
 * Job lifecycle over HTTP: the POST hold window, polling, cancel, retry, lists, the queue summary, batches of
 * every product shape, and artifact links (download, 404, 410 after expiry).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Batch, Job } from '../../../../src-main/common/api-types.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { audio, Client, expectError, json } from '../../../helpers/http-client.js';

let t: TestService;
let api: Client;
beforeAll(async () => {
  t = await startTestService({ holdSeconds: 4, workers: 2 });
  api = new Client(t.url, t.key);
  // Warm the worker processes so that the hold tests measure the hold, not a cold start on a busy machine.
  const warm = await json<Job>(api.postJson('/v1/text-to-speech', { model: 'test-tts', text: 'warm up' }));
  await poll<Job>(`/v1/text-to-speech/${warm.id}`, (j) => j.status === 'succeeded');
});
afterAll(async () => {
  await t?.stop();
});

const model = (id: string) => ({ name: 'model', value: id });
const params = (p: object) => ({ name: 'params', value: JSON.stringify(p) });
const file = (name = 'a.wav', field = 'file') => ({ name: field, file: { name, data: audio(500) } });

async function poll<T extends { status: string }>(path: string, done: (v: T) => boolean): Promise<T> {
  for (;;) {
    const value = await json<T>(api.get(path));
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('hold window', () => {
  it('a POST answers with the finished job when it finishes within the window', async () => {
    const job = await json<Job>(api.postForm('/v1/speech-to-text', [model('test-asr'), params({ language: 'en' }), { name: 'name', value: 'interview' }, file()]));
    expect(job).toMatchObject({ status: 'succeeded', name: 'interview', language: 'en', model_id: 'test-asr', product: 'speech-to-text' });
    expect(job.result?.text).toMatch(/^test /);
    expect(job.finished_at).not.toBeNull();
  });
  it('a POST answers with the running job when the window ends first, then GET polls it to the end', async () => {
    const job = await json<Job>(api.postJson('/v1/text-to-speech', { model: 'test-tts', text: 'slow', params: { behaviour: 'sleep', ms: 7000 } }));
    expect(['queued', 'running']).toContain(job.status);
    expect(job.finished_at).toBeNull();
    const done = await poll<Job>(`/v1/text-to-speech/${job.id}`, (j) => j.status === 'succeeded');
    expect(done.progress).toBe(1);
  });
});

describe('names people recognise', () => {
  it('a job sent without a name is named after its file or the start of its text; a name given wins', async () => {
    const transcribed = await json<Job>(api.postForm('/v1/speech-to-text', [model('test-asr'), file('interview.wav')]));
    expect(transcribed.name).toBe('interview.wav');
    const spoken = await json<Job>(api.postJson('/v1/text-to-speech', { model: 'test-tts', text: 'Short and sweet.' }));
    expect(spoken.name).toBe('Short and sweet.');
    const long = 'Welcome to the quarterly meeting of the society of people who write very long sentences for tests.';
    const speech = await json<Job>(api.postJson('/v1/text-to-speech', { model: 'test-tts', text: long }));
    expect(speech.name).toBe('Welcome to the quarterly meeting of the society of people…');
    expect(speech.name!.length).toBeLessThanOrEqual(60);
    const named = await json<Job>(api.postJson('/v1/text-to-speech', { model: 'test-tts', text: 'x', name: 'my take' }));
    expect(named.name).toBe('my take');
    // Exports are named after it.
    const done = await poll<Job>(`/v1/speech-to-text/${transcribed.id}`, (j) => j.status === 'succeeded');
    const res = await api.get(`/v1/speech-to-text/${done.id}/export?format=srt`);
    expect(res.headers.get('content-disposition')).toContain('interview.srt');
  });
});

describe('cancel, retry, lists', () => {
  it('cancels a running job and retries it as a new job', async () => {
    const job = await json<Job>(api.postJson('/v1/text-to-speech', { model: 'test-tts', text: 'long', params: { behaviour: 'sleep', ms: 30_000 } }));
    await json<Job>(api.post(`/v1/text-to-speech/${job.id}/cancel`));
    const cancelled = await poll<Job>(`/v1/text-to-speech/${job.id}`, (j) => j.status === 'cancelled');
    expect(cancelled.finished_at).not.toBeNull();
    const retried = await json<Job>(api.post(`/v1/text-to-speech/${job.id}/retry`));
    expect(retried.id).not.toBe(job.id);
    await json(api.post(`/v1/text-to-speech/${retried.id}/cancel`));
  });
  it('a failed engine run carries error_code and error_message', async () => {
    const job = await json<Job>(api.postJson('/v1/text-to-speech', { model: 'test-tts', text: 'x', params: { behaviour: 'fail', code: 'engine_failed', message: 'boom' } }));
    const failed = job.status === 'failed' ? job : await poll<Job>(`/v1/text-to-speech/${job.id}`, (j) => j.status === 'failed');
    expect(failed).toMatchObject({ error_code: 'engine_failed', error_message: 'boom' });
  });
  it('lists jobs with filters and pages, lists batches, summarises the queue', async () => {
    const page = await json<{ object: string; data: Job[]; next_cursor: string | null }>(api.get('/v1/jobs?product=text-to-speech&limit=2'));
    expect(page.object).toBe('list');
    expect(page.data.length).toBe(2);
    expect(page.data.every((j) => j.product === 'text-to-speech')).toBe(true);
    expect(page.next_cursor).toEqual(expect.any(String));
    const next = await json<{ data: Job[] }>(api.get(`/v1/jobs?product=text-to-speech&limit=2&cursor=${encodeURIComponent(page.next_cursor!)}`));
    expect(next.data.map((j) => j.id)).not.toContain(page.data[0]!.id);
    const succeeded = await json<{ data: Job[] }>(api.get('/v1/jobs?status=succeeded'));
    expect(succeeded.data.every((j) => j.status === 'succeeded')).toBe(true);
    await expectError(api.get('/v1/jobs?status=nope'), 400, 'invalid_request');
    await expectError(api.get('/v1/jobs?limit=0'), 400, 'invalid_request');
    await expectError(api.get('/v1/jobs?product=nope'), 400, 'invalid_request');
    expect((await json<{ object: string }>(api.get('/v1/batches'))).object).toBe('list');
    const queue = await json<{ queued: number; running: number; waiting: object }>(api.get('/v1/queue'));
    expect(queue).toMatchObject({ queued: expect.any(Number), running: expect.any(Number), waiting: expect.any(Object) });
  });
});

describe('batches of every shape', () => {
  it('speech-to-text batch: files[].name are the original names; items readable alone', async () => {
    const created = await json<Batch>(api.postForm('/v1/speech-to-text/batch', [model('test-asr'), params({}), file('one.wav'), file('two.mp3')]));
    expect(created.file_count).toBe(2);
    const batch = await poll<Batch>(`/v1/speech-to-text/batch/${created.id}`, (b) => b.status === 'complete');
    expect(batch.files.map((f) => f.name)).toEqual(['one.wav', 'two.mp3']);
    expect(batch).toMatchObject({ succeeded: 2, failed: 0, remaining: 0 });
    const item = await json<Job>(api.get(`/v1/speech-to-text/${batch.files[0]!.job_id}`));
    expect(item.batch_id).toBe(batch.id);
    await expectError(api.get(`/v1/text-to-speech/batch/${batch.id}`), 404, 'not_found');
  });
  it('text-to-speech batch with names; audio products; voice-cloning, continuation and design', async () => {
    const tts = await json<Batch>(api.postJson('/v1/text-to-speech/batch', { model: 'test-tts', items: [{ text: 'a', name: 'first' }, { text: 'b' }] }));
    // An item without a name is named after the start of its text.
    expect(tts.files.map((f) => f.name)).toEqual(['first', 'b']);
    for (const product of ['voice-isolator', 'audio-enhancement', 'stem-separation', 'voice-conversion']) {
      const job = await json<Job>(api.postForm(`/v1/${product}`, [model('test-audio'), params({ artifact: true }), file()]));
      expect(job).toMatchObject({ product, status: 'succeeded' });
      expect(job.result?.artifacts?.[0]?.url).toContain('/v1/artifacts/');
      await json<Batch>(api.postForm(`/v1/${product}/batch`, [model('test-audio'), file('x.wav'), file('y.wav')])).then((b) => api.post(`/v1/${product}/batch/${b.id}/cancel`));
    }
    const cloned = await json<Job>(api.postForm('/v1/voice-cloning', [model('test-cloning'), { name: 'name', value: 'me' }, file('ref.wav', 'reference_audio'), { name: 'text', value: 'say this' }]));
    expect(cloned.status).toBe('succeeded');
    await expectError(api.postForm('/v1/voice-cloning', [model('test-cloning'), file('ref.wav', 'reference_audio')]), 400, 'text_required');
    await expectError(api.postForm('/v1/voice-cloning', [model('test-cloning'), file('ref.wav', 'file'), { name: 'text', value: 'x' }]), 400, 'unsupported_param');
    const cloneBatch = await json<Batch>(api.postForm('/v1/voice-cloning/batch', [model('test-cloning'), file('ref.wav', 'reference_audio'), { name: 'text', value: 'one' }, { name: 'text', value: 'two' }]));
    expect(cloneBatch.file_count).toBe(2);
    await poll<Batch>(`/v1/voice-cloning/batch/${cloneBatch.id}`, (b) => b.status === 'complete');
    const continued = await json<Job>(api.postForm('/v1/voice-continuation', [model('test-cloning'), file('start.wav', 'audio'), { name: 'text', value: 'and then' }]));
    expect(continued.status).toBe('succeeded');
    const designed = await json<Job>(api.postJson('/v1/voice-design', { model: 'test-design', text: 'hello', description: 'a warm low voice' }));
    expect(designed.status).toBe('succeeded');
    await expectError(api.postJson('/v1/voice-design', { model: 'test-design', text: 'hello' }), 400, 'invalid_request');
    const designBatch = await json<Batch>(api.postJson('/v1/voice-design/batch', { model: 'test-design', items: [{ text: 'a', description: 'calm', name: 'n' }] }));
    await poll<Batch>(`/v1/voice-design/batch/${designBatch.id}`, (b) => b.status === 'complete');
  });
});

describe('transcript export', () => {
  it('exports a succeeded transcript as readable txt, srt, vtt, json; refuses bad formats, unfinished jobs and other routes', async () => {
    const job = await json<Job>(api.postForm('/v1/speech-to-text', [model('test-asr'), { name: 'name', value: 'talk.wav' }, file()]));
    expect(job.status).toBe('succeeded');
    const txt = await api.get(`/v1/speech-to-text/${job.id}/export?format=txt`);
    expect(txt.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(txt.headers.get('content-disposition')).toContain('talk.txt');
    expect(await txt.text()).toBe(`talk\n\n[00:00] test ${job.id}\n`);
    expect((await api.get(`/v1/speech-to-text/${job.id}/export?format=vtt`)).headers.get('content-type')).toMatch(/^text\/vtt/);
    await expectError(api.get(`/v1/speech-to-text/${job.id}/export?format=pdf`), 400, 'invalid_request');
    const slow = await json<Job>(api.postForm('/v1/speech-to-text', [model('test-asr'), params({ behaviour: 'sleep', ms: 30_000 }), file()]));
    await expectError(api.get(`/v1/speech-to-text/${slow.id}/export`), 409, 'conflict');
    await api.post(`/v1/speech-to-text/${slow.id}/cancel`);
    await expectError(api.get('/v1/speech-to-text/job_nope/export'), 404, 'not_found');
  });
});

describe('artifacts', () => {
  it('downloads by link without a key; 404 for a wrong name; 410 artifact_expired after expiry', async () => {
    const job = await json<Job>(api.postJson('/v1/text-to-speech', { model: 'test-tts', text: 'hi', params: { artifact: true } }));
    const artifact = job.result!.artifacts![0]!;
    const r = await fetch(artifact.url);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('audio/wav');
    expect(r.headers.get('content-disposition')).toMatch(/^attachment; filename="/);
    const bytes = new Uint8Array(await r.arrayBuffer());
    expect(Number(r.headers.get('content-length'))).toBe(bytes.length);
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe('RIFF');
    const part = await fetch(artifact.url, { headers: { range: 'bytes=0-3' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-3/${bytes.length}`);
    expect(new TextDecoder().decode(await part.arrayBuffer())).toBe('RIFF');
    expect((await fetch(artifact.url, { headers: { range: `bytes=${bytes.length}-` } })).status).toBe(416);
    const [, token] = /\/v1\/artifacts\/([^/]+)\//.exec(artifact.url)!;
    await expectError(fetch(`${t.url}/v1/artifacts/${token}/other.wav`), 404, 'not_found');
    t.service.db.prepare('UPDATE artifacts SET expires_at = ? WHERE token = ?').run(new Date(Date.now() - 1000).toISOString(), token);
    await expectError(fetch(artifact.url), 410, 'artifact_expired');
    expect((await json<Job>(api.get(`/v1/text-to-speech/${job.id}`))).status).toBe('succeeded');
  });
});
