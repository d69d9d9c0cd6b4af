/** The typed client against a real service over 127.0.0.1 (test engines + the built-in eSpeak model). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ApiClientError } from '../../../src-main/common/api-client.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { SHARED } from '../../helpers/system.js';

let svc: TestService;
let client: ApiClient;

beforeAll(async () => {
  svc = await startTestService();
  client = new ApiClient({ baseUrl: svc.url, apiKey: svc.key });
});
afterAll(async () => {
  await svc?.stop();
});

async function codeOf(promise: Promise<unknown>): Promise<[string, number]> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(ApiClientError);
    return [(err as ApiClientError).code, (err as ApiClientError).status];
  }
  throw new Error('expected the call to fail');
}

describe('ApiClient', () => {
  it('reads the public catalogue and quotes without a key', async () => {
    const anonymous = new ApiClient({ baseUrl: `${svc.url}/`, apiKey: null });
    const asr = await anonymous.listModels({ capability: 'asr' });
    expect(asr.map((m) => m.id)).toContain('test-asr');
    expect(asr.every((m) => m.status === 'available')).toBe(true);
    const all = await anonymous.listModels({ include_unavailable: true });
    expect(all.map((m) => m.id)).toContain('test-missing');
    const q = await anonymous.quote('test-asr', 120);
    expect(q).toMatchObject({ model_id: 'test-asr', seconds: 120, request_fee_usd: 0.05, currency: 'USD' });
    expect(q.total_usd).toBeCloseTo(0.05 + 0.012, 6);
  });

  it('turns error bodies into codes', async () => {
    const anonymous = new ApiClient({ baseUrl: svc.url, apiKey: null });
    expect(await codeOf(anonymous.listJobs())).toEqual(['unauthorized', 401]);
    expect(await codeOf(new ApiClient({ baseUrl: svc.url, apiKey: 'vdk_wrong' }).listJobs())).toEqual(['unauthorized', 401]);
    expect(await codeOf(client.getJob('speech-to-text', 'job_nope'))).toEqual(['not_found', 404]);
    expect(await codeOf(client.speak({ model: 'test-tts', text: '' }))).toEqual(['text_required', 400]);
    expect(await codeOf(client.transcribe({ file: new Blob([new Uint8Array(10)]), filename: 'x.wav' }, { model: 'test-missing' }))).toEqual(['model_unavailable', 422]);
    const closed = new ApiClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k' });
    expect(await codeOf(closed.queue())).toEqual(['network_error', 0]);
  });

  it('transcribes (model part first), lists, exports, and speaks with an artifact link', async () => {
    const wav = readFileSync(join(SHARED, 'audio', 'jfk.wav'));
    const job = await client.transcribe({ file: new Blob([wav]), filename: 'jfk.wav' }, { model: 'test-asr', name: 'jfk.wav' });
    expect(job).toMatchObject({ product: 'speech-to-text', model_id: 'test-asr', name: 'jfk.wav' });
    const list = await client.listJobs({ product: 'speech-to-text', limit: 10 });
    expect(list.data.map((j) => j.id)).toContain(job.id);
    expect(await client.queue()).toMatchObject({ queued: expect.any(Number), running: expect.any(Number) });

    let done = job;
    for (let i = 0; i < 100 && (done.status === 'queued' || done.status === 'running'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      done = await client.getJob('speech-to-text', job.id);
    }
    expect(done.status).toBe('succeeded');
    const srt = await (await client.exportTranscript(job.id, 'srt')).text();
    expect(srt).toMatch(/-->/);

    const speech = await client.speak({ model: 'espeak-ng', text: 'Testing the client.' });
    expect(speech.status).toBe('succeeded');
    const url = client.url(speech.result!.artifacts![0]!.url);
    const audio = await fetch(url);
    expect(audio.status).toBe(200);
    expect((await audio.arrayBuffer()).byteLength).toBeGreaterThan(1000);
  });

  it('retries and cancels through the extensions, and reads settings', async () => {
    const batch = await client.speakBatch({ model: 'test-tts', items: [{ text: 'one' }, { text: 'two' }] });
    expect(batch.file_count).toBe(2);
    expect((await client.getBatch('text-to-speech', batch.id)).id).toBe(batch.id);
    expect((await client.listBatches()).data.map((b) => b.id)).toContain(batch.id);
    const cancelled = await client.cancelBatch('text-to-speech', batch.id);
    expect(cancelled.id).toBe(batch.id);
    const settings = await client.getRemoteSettings();
    expect(settings).toMatchObject({ key_set: false });
    expect(Array.isArray(await client.localModels())).toBe(true);
  });

  it('builds the live URL with the key for browsers', () => {
    const url = new URL(new ApiClient({ baseUrl: 'http://127.0.0.1:8750', apiKey: 'vdk_x' }).realtimeUrl('espeak-ng'));
    expect(url.protocol).toBe('ws:');
    expect(url.pathname).toBe('/v1/text-to-speech/realtime');
    expect(url.searchParams.get('model')).toBe('espeak-ng');
    expect(url.searchParams.get('api_key')).toBe('vdk_x');
    const voiced = new URL(new ApiClient({ baseUrl: 'http://127.0.0.1:8750', apiKey: 'vdk_x' }).realtimeUrl('espeak-ng', { voice: 'de' }));
    expect(voiced.searchParams.get('voice')).toBe('de');
    expect(voiced.searchParams.get('model')).toBe('espeak-ng');
  });
});
