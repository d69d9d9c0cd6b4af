/**
 * The hosted-service client on the wire: a plain node:http server on loopback plays the hosted side (the network
 * is the boundary), so the test sees exactly what is sent: part order, headers, streamed bodies, and how every
 * kind of failure is classified.
 */
import busboy from 'busboy';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteClient, SMALL_ARTIFACT_BYTES } from '../../../src-main/remote/remote-client.js';
import { RemoteError } from '../../../src-main/remote/remote-errors.js';
import { SHARED } from '../../helpers/system.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  parts: { name: string; kind: 'field' | 'file'; value: string; bytes: number; filename?: string }[];
  json?: unknown;
}

const JFK = join(SHARED, 'audio/jfk.wav');
const seen: Seen[] = [];
let handler: (req: IncomingMessage, res: ServerResponse, s: Seen) => void = () => {};
let server: Server;
let base: string;
let dir: string;

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-remote-client-'));
  server = createServer((req, res) => {
    const s: Seen = { method: req.method!, url: req.url!, headers: req.headers, parts: [] };
    seen.push(s);
    const type = req.headers['content-type'] ?? '';
    if (type.startsWith('multipart/form-data')) {
      const bb = busboy({ headers: req.headers });
      bb.on('field', (name, value) => s.parts.push({ name, kind: 'field', value, bytes: value.length }));
      bb.on('file', (name, stream, info) => {
        const part = { name, kind: 'file' as const, value: '', bytes: 0, filename: info.filename };
        s.parts.push(part);
        stream.on('data', (chunk: Buffer) => (part.bytes += chunk.length));
      });
      bb.on('close', () => handler(req, res, s));
      req.pipe(bb);
    } else {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        if (text) s.json = JSON.parse(text);
        handler(req, res, s);
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

const timeouts = { requestTimeoutMs: 2_000, submitTimeoutMs: 5_000 };

describe('RemoteClient', () => {
  it('streams a speech-to-text submission in the spec part order with the key and Idempotency-Key', async () => {
    handler = (_req, res) => send(res, 200, { id: 'job_1', status: 'succeeded', result: { text: 'hi' } });
    const client = new RemoteClient({ url: base, key: 'vdk_hosted' }, timeouts);
    const job = await client.submit(
      { product: 'speech-to-text', model: 'pocketsphinx-en-us', params: { language: 'en' }, name: 'jfk', filePath: JFK, fileName: 'jfk.wav' },
      'voxdesk-job_local_1',
    );
    expect(job.id).toBe('job_1');
    const s = seen.at(-1)!;
    expect(s.method).toBe('POST');
    expect(s.url).toBe('/v1/speech-to-text');
    expect(s.headers.authorization).toBe('Bearer vdk_hosted');
    expect(s.headers['idempotency-key']).toBe('voxdesk-job_local_1');
    expect(s.parts.map((p) => p.name)).toEqual(['model', 'params', 'name', 'file']);
    expect(s.parts[0]!.value).toBe('pocketsphinx-en-us');
    expect(JSON.parse(s.parts[1]!.value)).toEqual({ language: 'en' });
    expect(s.parts[3]!.filename).toBe('jfk.wav');
    expect(s.parts[3]!.bytes).toBe(statSync(JFK).size);
  });

  it('sends text-to-speech as JSON', async () => {
    handler = (_req, res) => send(res, 200, { id: 'job_2', status: 'queued' });
    const client = new RemoteClient({ url: `${base}/`, key: 'k' }, timeouts);
    await client.submit({ product: 'text-to-speech', model: 'espeak-ng', params: { voice: 'en' }, name: null, text: 'Hello' }, 'voxdesk-x');
    const s = seen.at(-1)!;
    expect(s.url).toBe('/v1/text-to-speech');
    expect(s.headers['content-type']).toMatch(/^application\/json/);
    expect(s.json).toEqual({ model: 'espeak-ng', text: 'Hello', params: { voice: 'en' } });
  });

  it('reads the public catalogue without a key', async () => {
    handler = (_req, res) => send(res, 200, { object: 'list', data: [{ id: 'a' }, { id: 'b' }] });
    const client = new RemoteClient({ url: base, key: null }, timeouts);
    const rows = await client.listModels();
    expect(rows.map((r) => r.id)).toEqual(['a', 'b']);
    expect(seen.at(-1)!.url).toBe('/v1/models?include_unavailable=true');
    expect(seen.at(-1)!.headers.authorization).toBeUndefined();
  });

  it('keeps the hosted error code of a rejection', async () => {
    handler = (_req, res) => send(res, 422, { error: { code: 'unsupported_audio', message: 'not audio' } });
    const client = new RemoteClient({ url: base, key: 'k' }, timeouts);
    const error = await client.getJob('speech-to-text', 'job_x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteError);
    expect(error).toMatchObject({ kind: 'rejected', code: 'unsupported_audio', status: 422, message: 'not audio' });
  });

  it('classifies 503 and 502 as network, 500 as server', async () => {
    const client = new RemoteClient({ url: base, key: 'k' }, timeouts);
    for (const [status, kind] of [
      [503, 'network'],
      [502, 'network'],
      [500, 'server'],
    ] as const) {
      handler = (_req, res) => send(res, status, { error: { code: 'x', message: 'y' } });
      await expect(client.getJob('speech-to-text', 'j')).rejects.toMatchObject({ kind, status });
    }
    handler = (_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>bad gateway</html>');
    };
    await expect(client.getJob('speech-to-text', 'j')).rejects.toMatchObject({ kind: 'network', code: 'http_502' });
  });

  it('reports a refused connection and a silent server as network failures', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = new RemoteClient({ url: `http://127.0.0.1:${port}`, key: 'k' }, timeouts);
    await expect(refused.listModels()).rejects.toMatchObject({ kind: 'network', status: 0, message: expect.stringContaining('ECONNREFUSED') });

    handler = () => {}; // never answers
    const silent = new RemoteClient({ url: base, key: 'k' }, { requestTimeoutMs: 300, submitTimeoutMs: 300 });
    await expect(silent.getJob('speech-to-text', 'j')).rejects.toMatchObject({ kind: 'network', code: 'network_timeout' });
  });

  it('passes a caller abort through instead of calling it a network failure', async () => {
    handler = () => {};
    const client = new RemoteClient({ url: base, key: 'k' }, timeouts);
    const controller = new AbortController();
    const pending = client.getJob('speech-to-text', 'j', controller.signal).catch((e: unknown) => e);
    controller.abort(new Error('cancelled by user'));
    const error = await pending;
    expect(error).not.toBeInstanceOf(RemoteError);
    expect((error as Error).message).toBe('cancelled by user');
  });

  it('takes a short artifact whole and a long one as a stream: the same file either way, private, nothing partial left', async () => {
    const wav = readFileSync(JFK);
    expect(wav.length).toBeGreaterThan(SMALL_ARTIFACT_BYTES);
    const short = wav.subarray(0, 2000);
    handler = (req, res) => {
      const body = req.url!.endsWith('/short.wav') ? short : wav;
      res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': body.length });
      res.end(body);
    };
    const client = new RemoteClient({ url: base, key: 'k' }, timeouts);
    const into = mkdtempSync(join(dir, 'sizes-'));
    for (const [name, body] of [['short.wav', short], ['long.wav', wav]] as const) {
      const target = join(into, name);
      const got = await client.download(`${base}/v1/artifacts/tok/${name}`, target, 10 * 1024 * 1024);
      expect(got.bytes).toBe(body.length);
      expect(got.head.equals(body.subarray(0, 16))).toBe(true);
      expect(readFileSync(target).equals(body)).toBe(true);
      expect(statSync(target).mode & 0o777).toBe(0o600);
    }
    expect(readdirSync(into).sort()).toEqual(['long.wav', 'short.wav']);
  });

  it('downloads an artifact to disk without the key and treats a missing cancel route as no-op', async () => {
    const wav = readFileSync(JFK);
    handler = (req, res) => {
      if (req.url!.startsWith('/v1/artifacts/')) {
        res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': wav.length });
        res.end(wav);
      } else send(res, 404, { error: { code: 'not_found', message: 'no such route' } });
    };
    const client = new RemoteClient({ url: base, key: 'k' }, timeouts);
    const target = join(dir, 'out.wav');
    const got = await client.download(`${base}/v1/artifacts/tok/out.wav`, target, 10 * 1024 * 1024);
    expect(got.bytes).toBe(wav.length);
    expect(got.head.equals(wav.subarray(0, 16))).toBe(true);
    expect(readFileSync(target).equals(wav)).toBe(true);
    expect(seen.at(-1)!.headers.authorization).toBeUndefined(); // links need no key: it is never sent along
    expect(await client.cancelJob('text-to-speech', 'job_1')).toBeUndefined();
  });
});
