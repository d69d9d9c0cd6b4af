/**
 * Nothing a client sends can stall the service:
 * - a trickling body: a body that stops sending is cut with 408 (the hole: it was kept open for 5 minutes), while a
 *   slow but steady one is not;
 * - 200 wrong keys from one address: past 50 a minute they get 429 with Retry-After (the hole: 300+/s could be
 *   tried), while a key already working from that address keeps working and a newly guessed one learns nothing;
 * - uploads per account: a third concurrent upload is 429, an upload past the stored quota is 507, and other
 *   accounts are not affected.
 */
import { connect, type Socket } from 'node:net';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { audio, Client, expectError } from '../../../helpers/http-client.js';
import { scaled } from '../../../helpers/time-scale.js';

const services: TestService[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const s of services.splice(0)) await s.stop();
});

async function service(overrides: Parameters<typeof startTestService>[0] = {}): Promise<TestService> {
  const t = await startTestService(overrides);
  services.push(t);
  return t;
}

const BOUNDARY = 'voxdesk-test-boundary';

/** The start of a speech-to-text multipart body: the model part, then a file part's header. */
function multipartHead(model: string): string {
  return (
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="model"\r\n\r\n${model}\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="slow.wav"\r\nContent-Type: audio/wav\r\n\r\n`
  );
}

/** A raw HTTP request whose body the test sends by hand; resolves the whole answer when the server closes. */
function rawRequest(t: TestService, key: string, head: Record<string, string>, path: string): { socket: Socket; answer: Promise<string>; received: () => string } {
  const port = Number(new URL(t.url).port);
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  let text = '';
  socket.on('data', (d: Buffer) => (text += d.toString()));
  const answer = new Promise<string>((resolve) => socket.on('close', () => resolve(text)));
  socket.on('error', () => undefined);
  const headers = Object.entries({ Host: `127.0.0.1:${port}`, Authorization: `Bearer ${key}`, ...head }).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  socket.write(`POST ${path} HTTP/1.1\r\n${headers}\r\n`);
  return { socket, answer, received: () => text };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((rel) => statSync(join(dir, rel)).isFile());
}

describe('a trickling body', () => {
  it('that stops sending is cut with 408 and its partial upload deleted', async () => {
    const t = await service({ bodyIdleTimeoutMs: 400 });
    const { socket, answer } = rawRequest(t, t.key, { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, 'Content-Length': '1000000' }, '/v1/speech-to-text');
    socket.write(multipartHead('test-asr') + 'RIFF'.padEnd(4000, 'x'));
    const text = await answer; // the service closes the connection
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(text).toMatch(/connection: close/i);
    expect(text).toContain('"code":"request_timeout"');
    await expect.poll(() => filesUnder(join(t.dataDir, 'uploads'))).toEqual([]);
    expect((await fetch(`${t.url}/v1/health`)).status).toBe(200);
  });

  it('that stops sending is cut with 408 when it is JSON too (read straight from the connection)', async () => {
    const t = await service({ bodyIdleTimeoutMs: 400 });
    const { socket, answer } = rawRequest(t, t.key, { 'Content-Type': 'application/json', 'Content-Length': '1000' }, '/v1/text-to-speech');
    socket.write('{"model": "test-tts", "te');
    const text = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(text).toMatch(/connection: close/i);
    expect(text).toContain('"code":"request_timeout"');
    expect((await fetch(`${t.url}/v1/health`)).status).toBe(200);
  });

  it('a chunked JSON body is refused as soon as it passes 8 MB; the rest is discarded and the connection serves the next request', async () => {
    const t = await service();
    const { socket, received } = rawRequest(t, t.key, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }, '/v1/text-to-speech');
    const chunk = `{"text": "${'x'.repeat(1024 * 1024)}`;
    for (let i = 0; i < 9 && !socket.destroyed; i++) socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    socket.write('0\r\n\r\n');
    await expect.poll(() => received(), { timeout: scaled(20_000) }).toContain('larger than 8388608 bytes');
    expect(received()).toMatch(/^HTTP\/1\.1 400 /);
    expect(received()).not.toMatch(/connection: close/i);
    // The same connection answers the next request once the refused body has been read and discarded.
    socket.write(`GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n`);
    await expect.poll(() => received().match(/HTTP\/1\.1 200 /g)?.length ?? 0, { timeout: scaled(20_000) }).toBe(1);
    const ok = await fetch(`${t.url}/v1/text-to-speech`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'test-tts', text: 'after' }),
    });
    expect(ok.status).toBeLessThan(300);
  });

  it('that is slow but steady is not cut (the limit is on silence, not on duration)', async () => {
    const t = await service({ bodyIdleTimeoutMs: 400 });
    const body = JSON.stringify({ model: 'test-tts', text: 'slow and steady' });
    const { socket, answer } = rawRequest(t, t.key, { 'Content-Type': 'application/json', 'Content-Length': String(body.length), Connection: 'close' }, '/v1/text-to-speech');
    for (let i = 0; i < body.length; i += 4) {
      socket.write(body.slice(i, i + 4));
      await new Promise((resolve) => setTimeout(resolve, 100)); // ~1.2 s in all, 3× the idle limit
    }
    expect(await answer).toMatch(/^HTTP\/1\.1 200 /);
  });
});

describe('wrong keys', () => {
  it('past 50 a minute from one address get 429 with Retry-After; keys already working there are unaffected', async () => {
    const t = await service();
    const working = new Client(t.url, t.key);
    expect((await working.get('/v1/jobs')).status).toBe(200); // in use from this address before the guessing
    const unseen = await t.service.keys.createKey('local', 'never used from here yet');

    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 200; i++) {
      const res = await new Client(t.url, `vdk_guess_${String(i).padStart(28, '0')}`).get('/v1/jobs');
      statuses.push(res.status);
      if (res.status === 429) {
        retryAfter ??= res.headers.get('retry-after');
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
      } else await res.arrayBuffer();
    }
    expect(statuses.slice(0, 50).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(50).every((s) => s === 429)).toBe(true);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);

    // The person's key keeps working; a right guess during the block looks like a wrong one.
    expect((await working.get('/v1/jobs')).status).toBe(200);
    await expectError(new Client(t.url, unseen).get('/v1/jobs'), 429, 'rate_limited');
    // The live WebSockets (speech and dictation) count the same way.
    for (const path of ['/v1/text-to-speech/realtime?model=espeak-ng', '/v1/speech-to-text/realtime?model=pocketsphinx-en-us']) {
      const refused = await new Promise<number>((resolve) => {
        const ws = new WebSocket(`${t.url.replace('http', 'ws')}${path}`, { headers: { authorization: 'Bearer vdk_another_wrong_guess_0000000000' } });
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('error', () => undefined);
      });
      expect(refused, path).toBe(429);
    }
  });
});

describe('uploads per account', () => {
  it('a third concurrent upload of an account is 429; another account still uploads', async () => {
    const t = await service({ maxConcurrentUploads: 2, bodyIdleTimeoutMs: 20_000 });
    const open = [0, 1].map(() => {
      const r = rawRequest(t, t.key, { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, 'Content-Length': '1000000' }, '/v1/speech-to-text');
      r.socket.write(multipartHead('test-asr') + 'RIFF');
      return r;
    });
    const api = new Client(t.url, t.key);
    const third = (): Promise<Response> =>
      api.postForm('/v1/speech-to-text', [
        { name: 'model', value: 'test-asr' },
        { name: 'file', file: { name: 'third.wav', data: audio() } },
      ]);
    await expect.poll(async () => (await third()).status, { timeout: scaled(10_000) }).toBe(429);
    const refused = await third();
    expect(refused.headers.get('retry-after')).toBe('10');
    expect(((await refused.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'too_many_uploads', message: expect.stringContaining('at most 2 at a time') });

    const other = new Client(t.url, (await t.service.keys.createKey('other')));
    const theirs = await other.postForm('/v1/speech-to-text', [
      { name: 'model', value: 'test-asr' },
      { name: 'file', file: { name: 'theirs.wav', data: audio() } },
    ]);
    expect(theirs.status).toBe(200);
    for (const r of open) r.socket.destroy();
    await expect.poll(async () => (await third()).status, { timeout: scaled(10_000) }).toBe(200);
  });

  it('the OpenAI-compatible upload route is held to the same budget (trust review 2, item 4)', async () => {
    // 8 concurrent slow uploads on /v1/audio/transcriptions were all accepted, stored outside the account's quota.
    const t = await service({ maxConcurrentUploads: 2, maxStoredUploadBytes: 200_000, bodyIdleTimeoutMs: 20_000 });
    const head = (model: string): string =>
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="model"\r\n\r\n${model}\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="slow.wav"\r\nContent-Type: audio/wav\r\n\r\n`;
    const open = Array.from({ length: 8 }, () => {
      const r = rawRequest(t, t.key, { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, 'Content-Length': '50000' }, '/v1/audio/transcriptions');
      r.socket.write(head('test-asr') + 'RIFF');
      return r;
    });
    // Two are held open; the other six are answered at once with 429.
    const answers = await Promise.all(open.slice(2).map((r) => r.answer));
    for (const answer of answers) {
      expect(answer).toMatch(/^HTTP\/1\.1 429 /);
      expect(answer).toContain('too_many_uploads');
    }
    for (const r of open) r.socket.destroy();
    // What the route keeps counts in the account's quota, in its own folder.
    const api = new Client(t.url, t.key);
    const post = (bytes: number): Promise<Response> =>
      api.postForm('/v1/audio/transcriptions', [
        { name: 'model', value: 'test-asr' },
        { name: 'file', file: { name: 'a.wav', data: audio(bytes) } },
      ]);
    await expect.poll(async () => (await post(120_000)).status, { timeout: scaled(10_000) }).toBe(200);
    const account = (await t.service.keys.find(t.key))!.accountId;
    expect(filesUnder(join(t.dataDir, 'uploads')).every((f) => f.startsWith(`${account}/`))).toBe(true);
    const refused = await post(120_000);
    expect(refused.status).toBe(507);
  });

  it('an upload past the bytes an account may keep is 507, before reading when the size is declared, else while streaming', async () => {
    const t = await service({ maxStoredUploadBytes: 100_000 });
    const api = new Client(t.url, t.key);
    const post = (name: string, bytes: number): Promise<Response> =>
      api.postForm('/v1/speech-to-text', [
        { name: 'model', value: 'test-asr' },
        { name: 'file', file: { name, data: audio(bytes) } },
      ]);
    expect((await post('first.wav', 60_000)).status).toBe(200);
    const message = await expectError(post('second.wav', 60_000), 507, 'upload_quota_exceeded');
    expect(message).toMatch(/more than the 0\.1 MiB it may keep/);

    // Without Content-Length (chunked), the quota stops the upload as the bytes arrive; nothing partial is kept.
    const chunked = await fetch(`${t.url}/v1/speech-to-text`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      body: new ReadableStream({
        start(controller) {
          const enc = new TextEncoder();
          controller.enqueue(enc.encode(multipartHead('test-asr')));
          controller.enqueue(new Uint8Array(60_000));
          controller.enqueue(enc.encode(`\r\n--${BOUNDARY}--\r\n`));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(507);
    expect(filesUnder(join(t.dataDir, 'uploads')).filter((f) => !f.includes('first.wav'))).toEqual([]);
    // Another account has its own quota.
    const other = new Client(t.url, (await t.service.keys.createKey('other')));
    const theirs = await other.postForm('/v1/speech-to-text', [
      { name: 'model', value: 'test-asr' },
      { name: 'file', file: { name: 'theirs.wav', data: audio(60_000) } },
    ]);
    expect(theirs.status).toBe(200);
  });
});
