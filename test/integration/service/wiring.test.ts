/**
 * What createService wires from other areas, checked end to end through the one running service: the live
 * WebSocket (key, session.created, PCM frames), the model manager's and hosted-settings routes, the built-in
 * catalogue sources, and a graceful close() that releases held POSTs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { CatalogueRecord, Job } from '../../../src-main/common/api-types.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { Client, json } from '../../helpers/http-client.js';

let t: TestService;
let api: Client;
beforeAll(async () => {
  t = await startTestService();
  api = new Client(t.url, t.key);
});
afterAll(async () => {
  await t?.stop();
});

describe('wired areas', () => {
  it('catalogue carries the built-in engines, the model manager rows and the unserved-product rows', async () => {
    const { data } = await json<{ data: CatalogueRecord[] }>(fetch(`${t.url}/v1/models?include_unavailable=true`));
    const ids = data.map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining(['espeak-ng', 'pocketsphinx-en-us', 'rnnoise', 'local-voice-design', 'spleeter-2stems-fp16', 'zipvoice-distill-int8-zh-en']));
    expect(data.some((m) => m.download !== null && m.provider === 'local')).toBe(true);
  });
  it('model manager and hosted-settings routes answer with a key', async () => {
    const local = await json<{ object: string; data: unknown[] }>(api.get('/v1/local/models'));
    expect(local.object).toBe('list');
    expect(local.data.length).toBeGreaterThan(0);
    const remote = await json<{ url: string | null; key_set: boolean }>(api.get('/v1/settings/remote'));
    expect(remote).toMatchObject({ url: null, key_set: false });
    expect((await fetch(`${t.url}/v1/local/models`)).status).toBe(401);
  });
  it('live text-to-speech WebSocket: key in api_key, session.created, PCM frames then response.done', async () => {
    const ws = new WebSocket(`${t.url.replace('http', 'ws')}/v1/text-to-speech/realtime?model=espeak-ng&api_key=${t.key}`);
    ws.binaryType = 'arraybuffer';
    const messages: string[] = [];
    let pcmBytes = 0;
    await new Promise<void>((resolve, reject) => {
      ws.on('error', reject);
      ws.on('message', (data, isBinary) => {
        if (isBinary) {
          pcmBytes += (data as ArrayBuffer).byteLength;
          return;
        }
        const message = JSON.parse(String(data)) as { type: string };
        messages.push(message.type);
        if (message.type === 'session.created') {
          ws.send(JSON.stringify({ type: 'session.update', session: { speed: 1 } }));
          ws.send(JSON.stringify({ type: 'speak', text: 'Hello there.' }));
        }
        if (message.type === 'response.done') resolve();
      });
    });
    ws.close();
    expect(messages[0]).toBe('session.created');
    expect(pcmBytes).toBeGreaterThan(1000);
  });
  it('live WebSocket refuses a missing key before the upgrade', async () => {
    const ws = new WebSocket(`${t.url.replace('http', 'ws')}/v1/text-to-speech/realtime?model=espeak-ng`);
    const status = await new Promise<number>((resolve) => ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)));
    expect(status).toBe(401);
  });
});

describe('held connections', () => {
  it('a client that leaves during the hold releases it; the job carries on and the service keeps answering', async () => {
    const controller = new AbortController();
    const held = fetch(`${t.url}/v1/text-to-speech`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json', 'idempotency-key': 'leave-early' },
      body: JSON.stringify({ model: 'test-tts', text: 'x', params: { behaviour: 'sleep', ms: 1500 } }),
      signal: controller.signal,
    });
    await new Promise((r) => setTimeout(r, 300));
    controller.abort();
    await expect(held).rejects.toThrow();
    const { data } = await json<{ data: Job[] }>(api.get('/v1/jobs?product=text-to-speech&limit=1'));
    const job = data[0]!;
    expect(['queued', 'running', 'succeeded']).toContain(job.status);
    expect((await fetch(`${t.url}/v1/health`)).status).toBe(200);
  });
});

describe('graceful close', () => {
  it('close() answers a held POST at once with the job as it stands, then stops', async () => {
    const s = await startTestService({ holdSeconds: 120 });
    const held = new Client(s.url, s.key).postJson('/v1/text-to-speech', { model: 'test-tts', text: 'x', params: { behaviour: 'sleep', ms: 60_000 } });
    await new Promise((r) => setTimeout(r, 800));
    const closing = s.stop();
    const job = await json<Job>(held);
    expect(['queued', 'running', 'cancelled', 'failed']).toContain(job.status);
    await closing;
    await expect(fetch(`${s.url}/v1/health`)).rejects.toThrow();
  });
});
