/**
 * Every bad input of the issue, over real HTTP on loopback: each gets its status and error code, and the service
 * keeps answering afterwards.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../../../src-main/common/api-types.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { audio, Client, expectError, json } from '../../../helpers/http-client.js';

let t: TestService;
let api: Client;

beforeAll(async () => {
  t = await startTestService({ holdSeconds: 10 });
  api = new Client(t.url, t.key);
});
afterAll(async () => {
  await t?.stop();
});

const uploads = (): string[] => readdirSync(join(t.dataDir, 'uploads')).sort();
const file = (name = 'a.wav', bytes = 2000) => ({ name: 'file', file: { name, data: audio(bytes) } });

describe('authentication', () => {
  it('401 unauthorized without a key, with WWW-Authenticate', async () => {
    const r = await fetch(`${t.url}/v1/jobs`);
    expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/);
    await expectError(r, 401, 'unauthorized');
  });
  it('401 for an invalid key and a malformed header', async () => {
    await expectError(new Client(t.url, 'vdk_not_a_real_key').get('/v1/jobs'), 401, 'unauthorized');
    await expectError(fetch(`${t.url}/v1/jobs`, { headers: { authorization: 'Basic abc' } }), 401, 'unauthorized');
  });
  it('the catalogue, health and unknown artifacts need no key', async () => {
    expect((await fetch(`${t.url}/v1/models`)).status).toBe(200);
    expect((await fetch(`${t.url}/v1/models/test-asr`)).status).toBe(200);
    expect((await fetch(`${t.url}/v1/models/test-asr/quote?seconds=60`)).status).toBe(200);
    expect((await fetch(`${t.url}/v1/health`)).status).toBe(200);
    await expectError(fetch(`${t.url}/v1/artifacts/nope/x.wav`), 404, 'not_found');
  });
  it('403 forbidden_origin for a foreign browser origin, and no CORS grant', async () => {
    const r = await api.get('/v1/jobs', { origin: 'http://evil.example' });
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
    await expectError(r, 403, 'forbidden_origin');
    const own = await api.get('/v1/jobs', { origin: t.url });
    expect(own.status).toBe(200);
  });
});

describe('routing and bodies', () => {
  it('404 not_found for unknown routes and products', async () => {
    await expectError(api.get('/v1/nope'), 404, 'not_found');
    await expectError(api.get('/v1/podcasts/job_1'), 404, 'not_found');
    await expectError(api.post('/v1/voice-continuation/batch'), 404, 'not_found');
  });
  it('400 invalid_json for malformed JSON and non-object bodies', async () => {
    await expectError(api.post('/v1/text-to-speech', { 'content-type': 'application/json' }, '{"model": '), 400, 'invalid_json');
    await expectError(api.post('/v1/text-to-speech', { 'content-type': 'application/json' }, '[1,2]'), 400, 'invalid_json');
  });
  it('415 unsupported_media_type for the wrong content type', async () => {
    await expectError(api.post('/v1/text-to-speech', { 'content-type': 'text/plain' }, 'hello'), 415, 'unsupported_media_type');
    await expectError(api.postJson('/v1/speech-to-text', { model: 'test-asr' }), 415, 'unsupported_media_type');
    await expectError(api.post('/v1/speech-to-text/batch', { 'content-type': 'application/octet-stream' }, 'RIFF'), 415, 'unsupported_media_type');
  });
  it('400 invalid_request for a malformed multipart body', async () => {
    await expectError(api.post('/v1/speech-to-text', { 'content-type': 'multipart/form-data' }, 'x'), 400, 'invalid_request');
    const truncated = '--b\r\nContent-Disposition: form-data; name="model"\r\n\r\ntest-asr\r\n--b\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\nRIFF';
    await expectError(api.post('/v1/speech-to-text', { 'content-type': 'multipart/form-data; boundary=b' }, truncated), 400, 'invalid_request');
    await expectError(api.postForm('/v1/speech-to-text', [{ name: 'model', value: 'test-asr' }, { name: 'colour', value: 'red' }, file()]), 400, 'unsupported_param');
  });
});

describe('models and params', () => {
  it('400 model_required without a model', async () => {
    await expectError(api.postForm('/v1/speech-to-text', [file()]), 400, 'model_required');
    await expectError(api.postForm('/v1/speech-to-text', [{ name: 'name', value: 'x' }]), 400, 'model_required');
    await expectError(api.postJson('/v1/text-to-speech', { text: 'hi' }), 400, 'model_required');
  });
  it('400 model_required when the file arrives before the model', async () => {
    const message = await expectError(api.postForm('/v1/speech-to-text', [file(), { name: 'model', value: 'test-asr' }]), 400, 'model_required');
    expect(message).toMatch(/before/);
  });
  it('a request refused before its body was read keeps its connection (the rest is discarded), and the next request works', async () => {
    const refused = await api.postForm('/v1/speech-to-text', [file('big.wav', 2_000_000), { name: 'model', value: 'test-asr' }]);
    expect(refused.status).toBe(400);
    expect(refused.headers.get('connection')).not.toBe('close');
    await refused.text();
    const job = await json<Job>(api.postForm('/v1/speech-to-text', [{ name: 'model', value: 'test-asr' }, file()]));
    expect(job.status).toBe('succeeded');
  });
  it('400 invalid_request for an unknown model, 400 invalid_params for a model of another product', async () => {
    await expectError(api.postForm('/v1/speech-to-text', [{ name: 'model', value: 'no-such-model' }, file()]), 400, 'invalid_request');
    const message = await expectError(api.postJson('/v1/text-to-speech', { model: 'test-asr', text: 'hi' }), 400, 'invalid_params');
    expect(message).toContain('does not serve product text-to-speech');
  });
  it('422 model_unavailable with the reason; a downloading model is accepted', async () => {
    const message = await expectError(api.postForm('/v1/speech-to-text', [{ name: 'model', value: 'test-missing' }, file()]), 422, 'model_unavailable');
    expect(message).toContain('not downloaded');
    const r = await api.postForm('/v1/speech-to-text/batch', [{ name: 'model', value: 'test-downloading' }, file()]);
    expect(r.status).toBe(200);
    const batch = (await r.json()) as { id: string };
    await api.post(`/v1/speech-to-text/batch/${batch.id}/cancel`);
  });
  it('400 invalid_params for params that are not a JSON object', async () => {
    for (const value of ['[1]', '"x"', '42', 'null', '{nope']) {
      await expectError(api.postForm('/v1/speech-to-text', [{ name: 'model', value: 'test-asr' }, { name: 'params', value }, file()]), 400, 'invalid_params');
    }
    await expectError(api.postJson('/v1/text-to-speech', { model: 'test-tts', text: 'hi', params: [1] }), 400, 'invalid_params');
  });
  it('400 invalid_params naming the path when the schema rejects a value', async () => {
    const message = await expectError(
      api.postForm('/v1/speech-to-text', [{ name: 'model', value: 'test-asr' }, { name: 'params', value: '{"ms": "soon"}' }, file()]),
      400,
      'invalid_params',
    );
    expect(message).toContain('params.ms');
    await expectError(api.postJson('/v1/text-to-speech', { model: 'test-tts', text: 'hi', params: { behaviour: 'dance' } }), 400, 'invalid_params');
  });
  it('400 unsupported_param naming the unknown param', async () => {
    const message = await expectError(
      api.postForm('/v1/speech-to-text', [{ name: 'model', value: 'test-asr' }, { name: 'params', value: '{"temperature": 0.2}' }, file()]),
      400,
      'unsupported_param',
    );
    expect(message).toContain('temperature');
  });
  it('empty params part means defaults', async () => {
    const job = await json<Job>(api.postForm('/v1/speech-to-text', [{ name: 'model', value: 'test-asr' }, { name: 'params', value: '' }, file()]));
    expect(job.status).toBe('succeeded');
  });
});

describe('files and texts', () => {
  it('400 file_required without a file (or with an empty one)', async () => {
    await expectError(api.postForm('/v1/speech-to-text', [{ name: 'model', value: 'test-asr' }]), 400, 'file_required');
    await expectError(api.postForm('/v1/speech-to-text', [{ name: 'model', value: 'test-asr' }, file('empty.wav', 0)]), 400, 'file_required');
  });
  it('400 text_required for a missing or empty text, 400 text_too_long over the model limit', async () => {
    await expectError(api.postJson('/v1/text-to-speech', { model: 'test-tts' }), 400, 'text_required');
    await expectError(api.postJson('/v1/text-to-speech', { model: 'test-tts', text: '   ' }), 400, 'text_required');
    const message = await expectError(api.postJson('/v1/text-to-speech', { model: 'test-tts', text: 'x'.repeat(201) }), 400, 'text_too_long');
    expect(message).toContain('200');
  });
  it('400 too_many_items for 51 texts', async () => {
    const items = Array.from({ length: 51 }, (_, i) => ({ text: `t${i}` }));
    await expectError(api.postJson('/v1/text-to-speech/batch', { model: 'test-tts', items }), 400, 'too_many_items');
  });
  it('400 too_many_items at the 51st file, and nothing is kept', async () => {
    const before = uploads();
    const parts = [{ name: 'model', value: 'test-asr' }, ...Array.from({ length: 51 }, (_, i) => file(`f${i}.wav`, 100))];
    await expectError(api.postForm('/v1/speech-to-text/batch', parts), 400, 'too_many_items');
    expect(uploads()).toEqual(before);
  });
  it('413 file_too_large over the model limit, and the partial file is deleted', async () => {
    const before = uploads();
    await expectError(api.postForm('/v1/speech-to-text', [{ name: 'model', value: 'test-asr-small' }, file('big.wav', 200 * 1024)]), 413, 'file_too_large');
    expect(uploads()).toEqual(before);
  });
});

describe('jobs and accounts', () => {
  it('404 for an unknown job or batch id', async () => {
    await expectError(api.get('/v1/speech-to-text/job_nope'), 404, 'not_found');
    await expectError(api.get('/v1/speech-to-text/batch/bat_nope'), 404, 'not_found');
  });
  it("404 for another account's job and for a job read on another product route", async () => {
    const job = await json<Job>(api.postForm('/v1/speech-to-text', [{ name: 'model', value: 'test-asr' }, file()]));
    expect((await api.get(`/v1/speech-to-text/${job.id}`)).status).toBe(200);
    await expectError(api.get(`/v1/text-to-speech/${job.id}`), 404, 'not_found');
    const other = new Client(t.url, (await t.service.keys.createKey('someone-else')));
    await expectError(other.get(`/v1/speech-to-text/${job.id}`), 404, 'not_found');
    await expectError(other.post(`/v1/speech-to-text/${job.id}/cancel`), 404, 'not_found');
  });
  it('429 too_many_open_batches for a third open batch', async () => {
    const slow = { model: 'test-tts', params: { behaviour: 'sleep', ms: 20_000 }, items: [{ text: 'a' }] };
    const a = await json<{ id: string }>(api.postJson('/v1/text-to-speech/batch', slow));
    const b = await json<{ id: string }>(api.postJson('/v1/text-to-speech/batch', slow));
    await expectError(api.postJson('/v1/text-to-speech/batch', slow), 429, 'too_many_open_batches');
    await json(api.post(`/v1/text-to-speech/batch/${a.id}/cancel`));
    await json(api.post(`/v1/text-to-speech/batch/${b.id}/cancel`));
  });
  it('409 idempotency_key_reused for the same key with another request; a replay returns the original', async () => {
    const body = { model: 'test-tts', text: 'once' };
    const first = await json<Job>(api.postJson('/v1/text-to-speech', body, { 'idempotency-key': 'k-1' }));
    const replay = await json<Job>(api.postJson('/v1/text-to-speech', body, { 'idempotency-key': 'k-1' }));
    expect(replay.id).toBe(first.id);
    await expectError(api.postJson('/v1/text-to-speech', { ...body, text: 'twice' }, { 'idempotency-key': 'k-1' }), 409, 'idempotency_key_reused');
    const up = [{ name: 'model', value: 'test-asr' }, file('same.wav')];
    const j1 = await json<Job>(api.postForm('/v1/speech-to-text', up, { 'idempotency-key': 'k-2' }));
    const j2 = await json<Job>(api.postForm('/v1/speech-to-text', up, { 'idempotency-key': 'k-2' }));
    expect(j2.id).toBe(j1.id);
    await expectError(api.postForm('/v1/speech-to-text', [{ name: 'model', value: 'test-asr' }, file('same.wav', 3000)], { 'idempotency-key': 'k-2' }), 409, 'idempotency_key_reused');
  });
});

it('the service still answers after all of the above', async () => {
  const health = await json<{ status: string }>(fetch(`${t.url}/v1/health`));
  expect(health.status).toBe('ok');
});
