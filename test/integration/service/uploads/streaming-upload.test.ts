/**
 * Uploads are streamed to disk: a 100 MB upload over a 1 MiB limit is refused with 413 while it is still being sent,
 * the partial file is deleted, and memory does not grow with the body; a large accepted upload arrives intact.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Job } from '../../../../src-main/common/api-types.js';
import { startTestService, type TestService } from '../../../helpers/service.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ maxUploadBytes: 1024 * 1024 });
});
afterAll(async () => {
  await t?.stop();
});

const BOUNDARY = 'voxdeskboundary7MA4YWxkTrZu0gW';
const CHUNK = Buffer.alloc(64 * 1024, 7);

function head(model: string, fileName: string, params: string | null): Buffer {
  return Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="model"\r\n\r\n${model}\r\n` +
      (params === null ? '' : `--${BOUNDARY}\r\nContent-Disposition: form-data; name="params"\r\n\r\n${params}\r\n`) +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: audio/wav\r\n\r\n`,
  );
}
const TAIL = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);

/** Streams a multipart upload of `bytes` file bytes with backpressure; resolves with the answer (maybe early). */
function upload(model: string, bytes: number, onChunk?: () => void, params: string | null = null): Promise<{ status: number; body: string; sentBytes: number }> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = request(`${t.url}/v1/speech-to-text`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    });
    req.on('response', (res) => {
      answered = true;
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, sentBytes: sent }));
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    req.write(head(model, 'big.wav', params));
    const pump = (): void => {
      while (sent < bytes && !answered) {
        onChunk?.();
        const n = Math.min(CHUNK.length, bytes - sent);
        sent += n;
        if (!req.write(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n))) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered) req.end(TAIL);
    };
    pump();
  });
}

/** Every uploaded file (uploads/<account>/up_…/NN-name), as absolute paths. */
function uploadedFiles(): string[] {
  const root = join(t.dataDir, 'uploads');
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .map((rel) => join(root, rel))
    .filter((path) => statSync(path).isFile())
    .sort();
}

it('413 file_too_large while streaming 100 MB over a 1 MiB limit; nothing kept, memory flat', async () => {
  const before = uploadedFiles();
  global.gc?.();
  const base = process.memoryUsage();
  let peak = 0;
  const sample = (): void => {
    const m = process.memoryUsage();
    peak = Math.max(peak, m.heapUsed + m.arrayBuffers - (base.heapUsed + base.arrayBuffers));
  };
  const result = await upload('test-asr', 100 * 1024 * 1024, sample);
  expect(result.status, result.body).toBe(413);
  expect(JSON.parse(result.body).error.code).toBe('file_too_large');
  // The refusal came long before the 100 MB were sent.
  expect(result.sentBytes).toBeLessThan(90 * 1024 * 1024);
  expect(uploadedFiles()).toEqual(before);
  expect(peak).toBeLessThan(48 * 1024 * 1024);
  const health = await fetch(`${t.url}/v1/health`);
  expect(health.status).toBe(200);
});

it('an accepted upload is written to disk intact (streamed, hashed, not buffered)', async () => {
  const size = 1024 * 1024 - 10;
  const result = await upload('test-asr', size);
  expect(result.status, result.body).toBe(200);
  const job = JSON.parse(result.body) as Job;
  expect(job.status).toBe('succeeded');
  const files = uploadedFiles();
  const written = files.map((f) => readFileSync(f)).find((b) => b.length === size);
  expect(written).toBeDefined();
  const expected = createHash('sha256');
  for (let sent = 0; sent < size; sent += CHUNK.length) expected.update(CHUNK.subarray(0, Math.min(CHUNK.length, size - sent)));
  expect(createHash('sha256').update(written!).digest('hex')).toBe(expected.digest('hex'));
  expect(files.some((f) => f.endsWith('-big.wav'))).toBe(true);
});

it('bad params are refused before the audio is read', async () => {
  const result = await upload('test-asr', 100 * 1024 * 1024, undefined, '{"no_such_param": 1}');
  expect(result.status, result.body).toBe(400);
  expect(JSON.parse(result.body).error.code).toBe('unsupported_param');
  expect(result.sentBytes).toBeLessThan(90 * 1024 * 1024);
});

it('a JSON body over 8 MB is refused without being buffered whole', async () => {
  const response = await fetch(`${t.url}/v1/text-to-speech`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'test-tts', text: 'x'.repeat(9 * 1024 * 1024) }),
  });
  expect(response.status).toBe(400);
  expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
});
