/**
 * Hosted artifacts through the real local service, against a scripted hosted service on loopback: a hosted answer
 * naming an artifact elsewhere (another address, or a redirect there) fails the job and that address is never
 * asked (the hole: any address the answer named was fetched); an artifact is served with the content type Voxdesk
 * sniffs, never the hosted `text/html`; and downloads stop at the size cap with nothing partial kept.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../../src-main/common/api-types.js';
import { RemoteClient } from '../../../src-main/remote/remote-client.js';
import { resolveRemoteOptions } from '../../../src-main/remote/remote-options.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { Client, json } from '../../helpers/http-client.js';

interface Scripted {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

async function scripted(handle: (req: IncomingMessage, res: ServerResponse, base: string) => void): Promise<Scripted> {
  const requests: string[] = [];
  let base = '';
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => handle(req, res, base));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: base, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const WAV = Buffer.concat([Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ', 'latin1'), Buffer.alloc(32)]);
const HTML = Buffer.from('<html><script>fetch("/v1/keys")</script></html>');

/** What the hosted job's artifact is this time. */
let artifact: { url: (base: string) => string; contentType: string } = { url: () => '', contentType: '' };
let elsewhere: Scripted;
let hosted: Scripted;
let t: TestService;

beforeAll(async () => {
  elsewhere = await scripted((_req, res) => res.writeHead(200, { 'content-type': 'audio/wav' }).end(WAV));
  hosted = await scripted((req, res, base) => {
    const json = (status: number, body: unknown): void => void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.url!.startsWith('/v1/models')) return json(200, { object: 'list', data: [{ id: 'tts', name: 'TTS', capability: 'tts', status: 'available', provider: 'local' }] });
    if (req.method === 'POST' && req.url === '/v1/text-to-speech') {
      return json(200, { id: 'job_h1', status: 'succeeded', duration_seconds: '1.000', result: { artifacts: [{ url: artifact.url(base), content_type: artifact.contentType }] } });
    }
    if (req.url === '/files/audio.wav') return void res.writeHead(200, { 'content-type': 'text/html' }).end(WAV);
    if (req.url === '/files/page.html') return void res.writeHead(200, { 'content-type': 'text/html' }).end(HTML);
    if (req.url === '/files/moved') return void res.writeHead(302, { location: `${elsewhere.url}/x.wav` }).end();
    json(404, { error: { code: 'not_found', message: 'no' } });
  });
  t = await startTestService();
  const put = await fetch(`${t.url}/v1/settings/remote`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: hosted.url, key: 'vdk_hosted_key_for_artifact_tests' }),
  });
  expect(put.status).toBe(200);
});
afterAll(async () => {
  await t?.stop();
  await hosted?.close();
  await elsewhere?.close();
});

async function speak(): Promise<Job> {
  const api = new Client(t.url, t.key);
  let job = await json<Job>(api.postJson('/v1/text-to-speech', { model: 'remote:tts', text: 'hello' }));
  for (let i = 0; i < 200 && (job.status === 'queued' || job.status === 'running'); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    job = await json<Job>(api.get(`/v1/text-to-speech/${job.id}`));
  }
  return job;
}

describe('hosted artifacts', () => {
  it('named at another address are not downloaded: the job fails and that address is never asked', async () => {
    artifact = { url: () => `${elsewhere.url}/private/admin.wav`, contentType: 'audio/wav' };
    const job = await speak();
    expect(job).toMatchObject({ status: 'failed', error_code: 'remote_failed' });
    expect(job.error_message).toContain(`at ${elsewhere.url}, not at its own address ${hosted.url}`);
    expect(elsewhere.requests).toEqual([]);
  });

  it('redirected to another address are not followed', async () => {
    artifact = { url: (base) => `${base}/files/moved`, contentType: 'audio/wav' };
    const job = await speak();
    expect(job).toMatchObject({ status: 'failed', error_code: 'remote_failed' });
    expect(job.error_message).toMatch(/redirects elsewhere \(302\)/);
    expect(elsewhere.requests).toEqual([]);
  });

  it('are served with the type Voxdesk sniffs, never the hosted text/html', async () => {
    artifact = { url: (base) => `${base}/files/audio.wav`, contentType: 'text/html' };
    const wav = await speak();
    expect(wav.status).toBe('succeeded');
    const audio = await fetch((wav.result as { artifacts: { url: string }[] }).artifacts[0]!.url);
    expect(audio.headers.get('content-type')).toBe('audio/wav');
    expect(Buffer.from(await audio.arrayBuffer()).equals(WAV)).toBe(true);

    artifact = { url: (base) => `${base}/files/page.html`, contentType: 'text/html' };
    const page = await speak();
    expect(page.status).toBe('succeeded');
    const served = await fetch((page.result as { artifacts: { url: string }[] }).artifacts[0]!.url);
    expect(served.headers.get('content-type')).toBe('application/octet-stream');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('the size cap', () => {
  it('stops a download past maxBytes, declared or not, and keeps nothing partial', async () => {
    const big = Buffer.alloc(50_000, 1);
    const server = await scripted((req, res) => {
      if (req.url === '/declared') res.writeHead(200, { 'content-length': big.length }).end(big);
      else {
        res.writeHead(200); // chunked: no length declared
        res.write(big.subarray(0, 25_000));
        res.end(big.subarray(25_000));
      }
    });
    const dir = mkdtempSync(join(tmpdir(), 'voxdesk-artifact-cap-'));
    try {
      const client = new RemoteClient({ url: server.url, key: null }, resolveRemoteOptions({ requestTimeoutMs: 5000, submitTimeoutMs: 5000 }));
      for (const path of ['/declared', '/chunked']) {
        await expect(client.download(`${server.url}${path}`, join(dir, 'a.bin'), 10_000)).rejects.toMatchObject({ code: 'remote_failed', message: expect.stringContaining('larger than 10000 bytes') });
      }
      expect(readdirSync(dir)).toEqual([]);
      expect((await client.download(`${server.url}/declared`, join(dir, 'a.bin'), 50_000)).bytes).toBe(50_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await server.close();
    }
  });
});
