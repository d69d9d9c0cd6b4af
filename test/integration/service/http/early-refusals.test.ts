/**
 * Issue 32, point 5: a request the service refuses before reading its body must still show the refusal to a client
 * that is busy sending it. Node's fetch posting a few MB of multipart to /v1/text-to-speech (a JSON route) failed
 * with EPIPE instead of the 415, because the service answered and closed the connection while the body was still
 * arriving. Each case below posts a body of a few MB (paced a little, as from a real network) or a large one at full
 * speed, with Node's fetch, and expects the documented status and error code.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { scaled } from '../../../helpers/time-scale.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.stop();
});

const BOUNDARY = 'voxdesk-early-refusal';
const encoder = new TextEncoder();

/** A multipart body (model, then a file of `megabytes`) sent in 64 KB pieces with a short pause every few. */
function pacedMultipart(model: string, megabytes: number): ReadableStream<Uint8Array> {
  const piece = new Uint8Array(64 * 1024).fill(7);
  const pieces = Math.ceil((megabytes * 1024 * 1024) / piece.length);
  let sent = -1;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent === -1) {
        controller.enqueue(
          encoder.encode(
            `--${BOUNDARY}\r\nContent-Disposition: form-data; name="model"\r\n\r\n${model}\r\n` +
              `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
          ),
        );
      } else if (sent < pieces) {
        if (sent % 4 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
        controller.enqueue(piece);
      } else {
        controller.enqueue(encoder.encode(`\r\n--${BOUNDARY}--\r\n`));
        controller.close();
      }
      sent++;
    },
  });
}

interface Outcome {
  status: number | string;
  code?: string;
}

/** What Node's fetch reports: the status and error code, or the network error it failed with. */
async function post(path: string, init: RequestInit): Promise<Outcome> {
  try {
    const response = await fetch(t.url + path, init);
    const text = await response.text();
    let code: string | undefined;
    try {
      code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
    } catch {
      code = undefined;
    }
    return { status: response.status, ...(code ? { code } : {}) };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { status: `network error: ${cause?.code ?? cause?.message ?? (error as Error).message}` };
  }
}

function paced(path: string, model: string, headers: Record<string, string>, megabytes = 4): Promise<Outcome> {
  return post(path, {
    method: 'POST',
    headers: { ...headers, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    body: pacedMultipart(model, megabytes),
    duplex: 'half',
  } as RequestInit);
}

const auth = (): Record<string, string> => ({ authorization: `Bearer ${t.key}` });

describe('a refusal before the body is read reaches Node\'s fetch while it is still sending a few MB', () => {
  const cases: Array<[string, string, string, () => Record<string, string>, Outcome]> = [
    ['415 multipart to the JSON route /v1/text-to-speech', '/v1/text-to-speech', 'test-tts', auth, { status: 415, code: 'unsupported_media_type' }],
    ['415 multipart to /v1/audio/speech', '/v1/audio/speech', 'tts-1', auth, { status: 415, code: 'unsupported_media_type' }],
    ['401 without a key', '/v1/speech-to-text', 'test-asr', () => ({}), { status: 401, code: 'unauthorized' }],
    ['401 with a wrong key', '/v1/speech-to-text', 'test-asr', () => ({ authorization: 'Bearer vdk_wrong_key_000000000000000000000' }), { status: 401, code: 'unauthorized' }],
    ['400 for a model the catalogue does not have', '/v1/speech-to-text', 'no-such-model', auth, { status: 400, code: 'invalid_request' }],
    ['404 for an unknown model on the OpenAI-compatible route', '/v1/audio/transcriptions', 'no-such-model', auth, { status: 404, code: 'model_not_found' }],
    ['413 past the model\'s file limit', '/v1/speech-to-text', 'test-asr-small', auth, { status: 413, code: 'file_too_large' }],
    ['422 for a model that is not installed', '/v1/speech-to-text', 'test-missing', auth, { status: 422, code: 'model_unavailable' }],
    ['404 for a route that does not exist', '/v1/no-such-route', 'test-asr', auth, { status: 404, code: 'not_found' }],
  ];
  for (const [name, path, model, headers, expected] of cases) {
    it(name, async () => {
      expect(await paced(path, model, headers())).toEqual(expected);
    });
  }
});

describe('a large body sent at full speed', () => {
  it('80 MB to a refusing route: the status arrives, and the connection serves the next request', async () => {
    const body = new Uint8Array(80 * 1024 * 1024);
    for (const [path, headers, expected] of [
      ['/v1/speech-to-text', {}, 401],
      ['/v1/text-to-speech', auth(), 415],
      ['/v1/no-such-route', auth(), 404],
    ] as const) {
      const form = new FormData();
      form.append('model', 'test-asr-small');
      form.append('file', new Blob([body]), 'big.wav');
      expect((await post(path, { method: 'POST', headers, body: form })).status, path).toBe(expected);
    }
    const health = await fetch(`${t.url}/v1/health`);
    expect(health.status).toBe(200);
  }, scaled(120_000));
});

describe('the discarding is bounded', () => {
  it('a refused body past the upload limit is not read forever: the service closes the connection', async () => {
    const small = await startTestService({ maxUploadBytes: 1024 * 1024 });
    try {
      const port = Number(new URL(small.url).port);
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      let answer = '';
      socket.on('data', (d: Buffer) => (answer += d.toString()));
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.write(`POST /v1/speech-to-text HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: ${200 * 1024 * 1024}\r\n\r\n`);
      const piece = Buffer.alloc(256 * 1024);
      let stop = false;
      void closed.then(() => (stop = true));
      // Keep sending until the service gives up on the body (past 1 MB), well before the 200 MB declared.
      let written = 0;
      while (!stop && written < 200 * 1024 * 1024) {
        if (!socket.write(piece)) await new Promise((resolve) => socket.once('drain', resolve).once('close', resolve));
        written += piece.length;
      }
      await closed;
      expect(answer).toMatch(/^HTTP\/1\.1 401 /);
      expect(written).toBeLessThan(200 * 1024 * 1024);
    } finally {
      await small.stop();
    }
  }, scaled(60_000));
});
