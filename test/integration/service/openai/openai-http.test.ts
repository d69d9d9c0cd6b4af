/**
 * The OpenAI-compatible routes' edge cases that the SDK never sends, over raw HTTP: a missing file, the wrong content
 * type, unknown parts and fields, parts in any order, a model's own file limit, a 500 MB upload (refused while it
 * streams, nothing kept), errors in OpenAI's shape everywhere under /v1/audio; and the settings route
 * (GET/PUT /v1/settings/openai, local account only) changing what whisper-1 and the voices mean.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenAiSettingsView } from '../../../../src-main/common/openai-names.js';
import { Client, audio } from '../../../helpers/http-client.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { SHARED } from '../../../helpers/system.js';
import { scaled } from '../../../helpers/time-scale.js';

let t: TestService;
let api: Client;
beforeAll(async () => {
  t = await startTestService({ holdSeconds: 60 });
  api = new Client(t.url, t.key);
});
afterAll(async () => t?.stop());

const SPEECH = new Uint8Array(readFileSync(join(SHARED, 'audio/multilingual/test.wav')));

async function openAiError(response: Response, status: number, param: string | null, code?: string): Promise<void> {
  const body = (await response.json()) as { error: Record<string, unknown> };
  expect(response.status, JSON.stringify(body)).toBe(status);
  expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
  expect(body.error.param).toBe(param);
  expect(body.error.type).toBe(status >= 500 ? 'server_error' : 'invalid_request_error');
  if (code) expect(body.error.code).toBe(code);
}

describe('transcriptions over raw HTTP', () => {
  it('the file may come before the model (parts in any order)', async () => {
    const response = await api.postForm('/v1/audio/transcriptions', [
      { name: 'file', file: { name: 'a.wav', data: SPEECH } },
      { name: 'response_format', value: 'text' },
      { name: 'model', value: 'test-asr' },
    ]);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await response.text()).toMatch(/^test job_\w+\n$/);
  });

  it('a missing or empty file is 400 on param file; no job is made', async () => {
    await openAiError(await api.postForm('/v1/audio/transcriptions', [{ name: 'model', value: 'whisper-1' }]), 400, 'file', 'file_required');
    await openAiError(
      await api.postForm('/v1/audio/transcriptions', [
        { name: 'model', value: 'whisper-1' },
        { name: 'file', file: { name: 'empty.wav', data: new Uint8Array(0) } },
      ]),
      400,
      'file',
      'file_required',
    );
    const jobs = (await (await api.get('/v1/jobs')).json()) as { data: unknown[] };
    expect(jobs.data).toHaveLength(1);
  });

  it('a missing model is 400 on param model', async () => {
    await openAiError(await api.postForm('/v1/audio/transcriptions', [{ name: 'file', file: { name: 'a.wav', data: audio() } }]), 400, 'model');
  });

  it('the wrong content type is 415 in OpenAI’s shape', async () => {
    await openAiError(await api.postJson('/v1/audio/transcriptions', { model: 'whisper-1' }), 415, null, 'unsupported_media_type');
    await openAiError(
      await fetch(`${t.url}/v1/audio/speech`, { method: 'POST', headers: api.headers({ 'content-type': 'text/plain' }), body: 'hello' }),
      415,
      null,
      'unsupported_media_type',
    );
  });

  it('unknown parts and fields are refused by name, as OpenAI does', async () => {
    const response = await api.postForm('/v1/audio/transcriptions', [
      { name: 'model', value: 'whisper-1' },
      { name: 'colour', value: 'blue' },
      { name: 'file', file: { name: 'a.wav', data: audio() } },
    ]);
    await openAiError(response, 400, 'colour', 'unsupported_param');
    await openAiError(await api.postJson('/v1/audio/speech', { model: 'tts-1', voice: 'nova', input: 'Hi', colour: 'blue' }), 400, 'colour', 'unsupported_param');
    await openAiError(
      await api.postForm('/v1/audio/translations', [
        { name: 'model', value: 'whisper-1' },
        { name: 'language', value: 'de' },
        { name: 'file', file: { name: 'a.wav', data: audio() } },
      ]),
      400,
      'language',
    );
  });

  it('malformed JSON, a missing key and an unknown route all answer in OpenAI’s shape', async () => {
    await openAiError(await fetch(`${t.url}/v1/audio/speech`, { method: 'POST', headers: api.headers({ 'content-type': 'application/json' }), body: '{"model":' }), 400, null, 'invalid_json');
    await openAiError(await fetch(`${t.url}/v1/audio/speech`, { method: 'POST', body: '{}' }), 401, null, 'invalid_api_key');
    await openAiError(await api.postJson('/v1/audio/voices', {}), 404, null, 'not_found');
  });

  it('a model’s own file limit applies once the model is known (413 on param file)', async () => {
    const before = readdirSync(join(t.dataDir, 'uploads'));
    const response = await api.postForm('/v1/audio/transcriptions', [
      { name: 'file', file: { name: 'big.wav', data: audio(100 * 1024) } },
      { name: 'model', value: 'test-asr-small' },
    ]);
    await openAiError(response, 413, 'file', 'file_too_large');
    expect(readdirSync(join(t.dataDir, 'uploads'))).toEqual(before);
  });

  it('500 MB and one chunk more is refused with 413 while it is still being sent; nothing is kept', async () => {
    const boundary = 'voxdeskOpenAiBoundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
    );
    const before = readdirSync(join(t.dataDir, 'uploads'));
    const chunk = Buffer.alloc(1024 * 1024, 7);
    const total = 500 * 1024 * 1024 + chunk.length;
    const result = await new Promise<{ status: number; body: string; sent: number }>((resolve, reject) => {
      let sent = 0;
      let answered = false;
      const req = request(`${t.url}/v1/audio/transcriptions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.key}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
      req.on('response', (res) => {
        answered = true;
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, sent }));
      });
      req.on('error', (error) => {
        if (!answered) reject(error);
      });
      req.write(head);
      const pump = (): void => {
        while (sent < total && !answered) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        if (!answered) req.end(`\r\n--${boundary}--\r\n`);
      };
      pump();
    });
    expect(result.status, result.body).toBe(413);
    expect(JSON.parse(result.body)).toMatchObject({ error: { code: 'file_too_large', type: 'invalid_request_error' } });
    expect(readdirSync(join(t.dataDir, 'uploads'))).toEqual(before);
  }, scaled(180_000));
});

describe('GET/PUT /v1/settings/openai', () => {
  it('shows the automatic choices, what they resolve to, the voices and the formats this machine makes', async () => {
    const view = (await (await api.get('/v1/settings/openai')).json()) as OpenAiSettingsView;
    expect(view).toMatchObject({ transcription_model: null, speech_model: null, voices: {}, resolved: { speech_model: 'espeak-ng' } });
    expect(view.resolved.voices!.nova).toEqual({ id: 'en-us+f2', name: 'English (America), f2' });
    expect(view.choices.speech.map((c) => c.id)).toContain('espeak-ng');
    expect(view.choices.voices.length).toBeGreaterThan(100);
    expect(view.speech_formats).toEqual(['wav', 'pcm', 'mp3', 'opus', 'aac', 'flac']);
  });

  it('PUT changes what whisper-1 and nova mean for the next request; bad values change nothing', async () => {
    const put = await fetch(`${t.url}/v1/settings/openai`, {
      method: 'PUT',
      headers: api.headers({ 'content-type': 'application/json' }),
      body: JSON.stringify({ transcription_model: 'test-asr', voices: { 'espeak-ng': { nova: 'de' } } }),
    });
    expect(put.status).toBe(200);
    expect(((await put.json()) as OpenAiSettingsView).resolved).toMatchObject({ transcription_model: 'test-asr', voices: { nova: { id: 'de' } } });
    const text = await api.postForm('/v1/audio/transcriptions', [
      { name: 'model', value: 'whisper-1' },
      { name: 'response_format', value: 'text' },
      { name: 'file', file: { name: 'a.wav', data: SPEECH } },
    ]);
    expect(await text.text()).toMatch(/^test job_/);
    const bad = await fetch(`${t.url}/v1/settings/openai`, {
      method: 'PUT',
      headers: api.headers({ 'content-type': 'application/json' }),
      body: JSON.stringify({ transcription_model: 'espeak-ng' }),
    });
    expect(bad.status).toBe(400);
    expect(((await (await api.get('/v1/settings/openai')).json()) as OpenAiSettingsView).transcription_model).toBe('test-asr');
    await fetch(`${t.url}/v1/settings/openai`, {
      method: 'PUT',
      headers: api.headers({ 'content-type': 'application/json' }),
      body: JSON.stringify({ transcription_model: null, voices: { 'espeak-ng': { nova: null } } }),
    });
  });

  it('belongs to the local account: another account’s key gets 404', async () => {
    const other = new Client(t.url, (await t.service.keys.createKey('someone-else')));
    expect((await other.get('/v1/settings/openai')).status).toBe(404);
    const put = await fetch(`${t.url}/v1/settings/openai`, { method: 'PUT', headers: other.headers({ 'content-type': 'application/json' }), body: '{"speech_model":null}' });
    expect(put.status).toBe(404);
  });
});
