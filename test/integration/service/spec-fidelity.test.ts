/**
 * Issue 19: the deviations a black-box audit of `voxdesk serve` against the spec found. Each case sends exactly what
 * a client would send over real HTTP (or a real WebSocket) on loopback and checks what the spec, or the documented
 * convention where the spec is silent, says comes back.
 */
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueRecord, Job } from '../../../src-main/common/api-types.js';
import { usageMicro } from '../../../src-main/common/pricing.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { LiveClient } from '../../helpers/live-harness.js';
import { audio, Client, expectError, json } from '../../helpers/http-client.js';
import { scaled } from '../../helpers/time-scale.js';

let t: TestService;
let api: Client;

/** A price high enough that rounding the billed seconds shows in micro-dollars: $60 a minute is $1 a second. */
const PRICE = { request_fee_usd: 0.05, per_minute_usd: 60, options: {} };

let pricingDir: string;
beforeAll(async () => {
  pricingDir = mkdtempSync(join(tmpdir(), 'voxdesk-pricing-'));
  const pricingFile = join(pricingDir, 'pricing.json');
  writeFileSync(pricingFile, JSON.stringify({ models: { 'test-asr-small': PRICE } }));
  t = await startTestService({ holdSeconds: 60, pricingFile });
  api = new Client(t.url, t.key);
});
afterAll(async () => {
  await t?.stop();
  rmSync(pricingDir, { recursive: true, force: true });
});

const file = (name = 'a.wav', bytes = 2000) => ({ name: 'file', file: { name, data: audio(bytes) } });
const model = (id: string) => ({ name: 'model', value: id });

describe('1. every check that can be made from the request is made before the job exists', () => {
  it('TTS mp3 at a sample rate MPEG cannot carry is 400 invalid_params naming output_sample_rate, and no job is created', async () => {
    const before = (await json<{ data: Job[] }>(api.get('/v1/jobs?limit=100'))).data.length;
    const message = await expectError(
      api.postJson('/v1/text-to-speech', { model: 'espeak-ng', text: 'Hello.', params: { output_format: 'mp3', output_sample_rate: 11000 } }),
      400,
      'invalid_params',
    );
    expect(message).toContain('params.output_sample_rate');
    expect((await json<{ data: Job[] }>(api.get('/v1/jobs?limit=100'))).data.length).toBe(before);
  });
  it('an MPEG rate with mp3 is accepted and the job succeeds', async () => {
    const job = await json<Job>(api.postJson('/v1/text-to-speech', { model: 'espeak-ng', text: 'Hi.', params: { output_format: 'mp3', output_sample_rate: 16000 } }));
    expect(job.status).toBe('succeeded');
  });
  it('an eSpeak language no voice speaks is 400 invalid_params naming params.language', async () => {
    const message = await expectError(
      api.postJson('/v1/text-to-speech', { model: 'espeak-ng', text: 'Hello.', params: { language: 'xx-YY' } }),
      400,
      'invalid_params',
    );
    expect(message).toContain('params.language');
  });
  it('eSpeak languages resolve as documented, any case: en-IN (falls back to en), pt-BR, fr', async () => {
    for (const language of ['en-IN', 'pt-BR', 'FR', 'cmn']) {
      const job = await json<Job>(api.postJson('/v1/text-to-speech', { model: 'espeak-ng', text: 'Hi.', params: { language } }));
      expect(job.status, language).toBe('succeeded');
    }
  });
  it('a text with no words to speak is 400 text_required before queueing, not a failed job', async () => {
    const before = (await json<{ data: Job[] }>(api.get('/v1/jobs?limit=100'))).data.length;
    for (const text of ['!!! ...', '\u{1F600}\u{1F600}']) {
      expect(await expectError(api.postJson('/v1/text-to-speech', { model: 'espeak-ng', text }), 400, 'text_required'), text).toContain('no words');
    }
    expect((await json<{ data: Job[] }>(api.get('/v1/jobs?limit=100'))).data.length).toBe(before);
  });
  it('the catalogue publishes the rules the validator enforces (the mp3 rates, the language pattern, closed objects)', async () => {
    const espeak = await json<CatalogueRecord>(api.get('/v1/models/espeak-ng'));
    const schema = espeak.params_schema as { additionalProperties?: unknown; allOf?: unknown[]; properties: Record<string, { pattern?: string }> };
    expect(schema.additionalProperties).toBe(false);
    expect(JSON.stringify(schema.allOf)).toContain('"mp3"');
    const pattern = new RegExp(schema.properties.language!.pattern!, 'u');
    expect(pattern.test('en-IN')).toBe(true);
    expect(pattern.test('xx-YY')).toBe(false);
  });
});

describe('2. one definition of text length: Unicode code points', () => {
  it('2,501 emoji (5,002 UTF-16 units) are within eSpeak\'s 5,000 characters: the job does not fail with text_too_long', async () => {
    // U+1F600 is outside the BMP: one code point, two UTF-16 units. eSpeak says nothing for it, so the job is quick;
    // the word at the end makes sure there is something to speak.
    const text = `${'\u{1F600}'.repeat(2501)} Hello.`;
    const job = await json<Job>(api.postJson('/v1/text-to-speech', { model: 'espeak-ng', text }));
    expect(job.error_code).not.toBe('text_too_long');
    expect(job.status).toBe('succeeded');
  });
  it('5,001 emoji are refused before queueing with 400 text_too_long, counted in code points', async () => {
    const message = await expectError(api.postJson('/v1/text-to-speech', { model: 'espeak-ng', text: '\u{1F600}'.repeat(5001) }), 400, 'text_too_long');
    expect(message).toContain('5001');
  });
  it('limits.max_text_chars is set for every text model (the default is published, not implied)', async () => {
    const models = await json<{ data: CatalogueRecord[] }>(api.get('/v1/models?capability=tts'));
    for (const m of models.data) expect(m.limits.max_text_chars, m.id).toBeGreaterThan(0);
  });
});

const BOUNDARY = 'voxdeskspecfidelity19';
const ZEROS = Buffer.alloc(1024 * 1024);

/** Streams a speech-to-text upload of exactly `bytes` file bytes, as curl -F file=@big.wav would. */
function streamUpload(bytes: number): Promise<{ status: number; body: string }> {
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
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    req.write(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="model"\r\n\r\ntest-asr\r\n` +
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
    );
    const pump = (): void => {
      while (sent < bytes && !answered) {
        const n = Math.min(ZEROS.length, bytes - sent);
        sent += n;
        if (!req.write(n === ZEROS.length ? ZEROS : ZEROS.subarray(0, n))) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered) req.end(`\r\n--${BOUNDARY}--\r\n`);
    };
    pump();
  });
}

describe('3. "under 500 MB" is under 500,000,000 bytes', () => {
  it('a file of exactly 500,000,000 bytes is 413 file_too_large and nothing is kept; 499,999,999 bytes are accepted', async () => {
    // Every uploaded file (uploads/<account>/up_…/NN-name): none may be kept.
    const root = join(t.dataDir, 'uploads');
    const uploads = (): string[] => readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((rel) => statSync(join(root, rel)).isFile()).sort();
    const before = uploads();
    const refused = await streamUpload(500_000_000);
    expect(refused.status, refused.body).toBe(413);
    expect(JSON.parse(refused.body).error.code).toBe('file_too_large');
    expect(uploads()).toEqual(before);
    const accepted = await streamUpload(499_999_999);
    expect(accepted.status, accepted.body).toBe(200);
    expect((JSON.parse(accepted.body) as Job).status).toBe('succeeded');
  }, scaled(300_000));

  it('limits.max_file_bytes is the largest accepted size: 499,999,999 for a file model without its own limit', async () => {
    const m = await json<CatalogueRecord>(api.get('/v1/models/test-asr'));
    expect(m.limits.max_file_bytes).toBe(499_999_999);
    const sphinx = await json<CatalogueRecord>(api.get('/v1/models/pocketsphinx-en-us'));
    expect(sphinx.limits.max_file_bytes).toBe(499_999_999);
  });
});

describe('4. curated models show their full params schema before they are downloaded', () => {
  it('whisper, parakeet, kokoro and piper rows that are not installed carry what they will accept', async () => {
    const all = (await json<{ data: CatalogueRecord[] }>(api.get('/v1/models?include_unavailable=true'))).data;
    const row = (id: string): CatalogueRecord & { params_schema: { properties: Record<string, Record<string, unknown>> } } => {
      const found = all.find((m) => m.id === id);
      expect(found, id).toBeDefined();
      expect(found!.status).toBe('unavailable');
      return found as never;
    };
    const whisper = row('whisper-small').params_schema.properties;
    expect(whisper.language!.enum).toContain('de');
    expect(whisper.task!.enum).toEqual(['transcribe', 'translate']);
    expect(whisper.timestamp_granularity!.enum).toEqual(['word', 'segment', 'none']); // words interpolated (issue 32)
    expect(whisper.temperature).toMatchObject({ enum: [0] });
    expect(row('parakeet-tdt-0.6b-v2').params_schema.properties.timestamp_granularity!.default).toBe('word');
    const kokoro = row('kokoro-en-v0_19').params_schema.properties;
    expect(kokoro.speaker).toMatchObject({ minimum: 0, maximum: 10 });
    expect(Object.keys(kokoro)).toEqual(expect.arrayContaining(['speed', 'output_format', 'output_sample_rate', 'output_channels']));
    expect(Object.keys(row('piper-en-us-lessac-medium').params_schema.properties)).toEqual(expect.arrayContaining(['speed', 'output_format']));
    for (const m of all.filter((r) => r.download !== null)) expect(Object.keys((m.params_schema.properties ?? {}) as object).length, m.id).toBeGreaterThan(0);
  });
});

describe('5. params of only whitespace are not a JSON object', () => {
  it('400 invalid_params for a params part of spaces or a newline; the empty string still means defaults', async () => {
    for (const value of [' ', '\n', '\t \r\n']) {
      await expectError(api.postForm('/v1/speech-to-text', [model('test-asr'), { name: 'params', value }, file()]), 400, 'invalid_params');
    }
    const job = await json<Job>(api.postForm('/v1/speech-to-text', [model('test-asr'), { name: 'params', value: '' }, file()]));
    expect(job.status).toBe('succeeded');
  });
});

describe('6. unknown fields are refused everywhere with 400 unsupported_param naming the field', () => {
  it('a top-level JSON field the route does not take', async () => {
    const message = await expectError(api.postJson('/v1/text-to-speech', { model: 'test-tts', text: 'hi', voice: 'en-us' }), 400, 'unsupported_param');
    expect(message).toContain('voice');
    const batch = await expectError(api.postJson('/v1/text-to-speech/batch', { model: 'test-tts', items: [{ text: 'a' }], name: 'x' }), 400, 'unsupported_param');
    expect(batch).toContain('name');
  });
  it('a per-item field of a JSON batch', async () => {
    const message = await expectError(
      api.postJson('/v1/text-to-speech/batch', { model: 'test-tts', items: [{ text: 'a' }, { text: 'b', params: { speed: 2 } }] }),
      400,
      'unsupported_param',
    );
    expect(message).toContain('items[1].params');
  });
  it('an unknown multipart part', async () => {
    const message = await expectError(api.postForm('/v1/speech-to-text', [model('test-asr'), { name: 'colour', value: 'red' }, file()]), 400, 'unsupported_param');
    expect(message).toContain('colour');
  });
  it('an unknown field of session.update is an error message, and the socket stays open', async () => {
    const live = await LiveClient.open(`${t.url.replace('http', 'ws')}/v1/text-to-speech/realtime?model=espeak-ng`, { authorization: `Bearer ${t.key}` });
    await live.waitFor('session.created');
    live.send({ type: 'session.update', session: { speed: 1.2, volume: 2 } });
    const error = (await live.waitFor('error')) as { error: { code: string; message: string } };
    expect(error.error.code).toBe('unsupported_param');
    expect(error.error.message).toContain('volume');
    live.send({ type: 'session.update', session: { speed: 1.5 }, voice: 'fr' });
    const second = (await live.waitFor('error')) as { error: { code: string; message: string } };
    expect(second.error).toMatchObject({ code: 'unsupported_param' });
    expect(second.error.message).toContain('voice');
    live.send({ type: 'session.update', session: { speed: 1.5 } });
    expect((await live.waitFor('session.updated')).session).toMatchObject({ speed: 1.5 });
    live.close();
  });
});

describe('8. GET /v1/health', () => {
  it('answers {"status":"ok"} and nothing else without a key', async () => {
    const r = await fetch(`${t.url}/v1/health`);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ status: 'ok' });
  });
  it('shows the queue counts to a valid key, and refuses a wrong one', async () => {
    const body = await json<Record<string, unknown>>(api.get('/v1/health'));
    expect(body).toMatchObject({ status: 'ok', queued: expect.any(Number), running: expect.any(Number), uptime_seconds: expect.any(Number) });
    await expectError(new Client(t.url, 'vdk_wrong').get('/v1/health'), 401, 'unauthorized');
  });
  it('keeps the machine-wide counts from the other accounts of a shared service', async () => {
    const other = new Client(t.url, (await t.service.keys.createKey('health-other')));
    expect(await json<Record<string, unknown>>(other.get('/v1/health'))).toEqual({ status: 'ok' });
  });
});

describe('9. eSpeak language names are read as UTF-8', () => {
  it('the catalogue labels say Māori and Norwegian Bokmål', async () => {
    const espeak = await json<CatalogueRecord>(api.get('/v1/models/espeak-ng'));
    const labels = Object.values((espeak.params_schema.properties as { voice: { 'x-labels': Record<string, string> } }).voice['x-labels']);
    expect(labels).toContain('Māori');
    expect(labels).toContain('Norwegian Bokmål');
    expect(labels.filter((l) => /[\u0080-\u009f]|Ã|Ä/.test(l))).toEqual([]);
  });
});

describe('10. query parameters', () => {
  it('booleans: true/false/1/0 in any case', async () => {
    const all = (await json<{ data: CatalogueRecord[] }>(api.get('/v1/models?include_unavailable=1'))).data.length;
    const some = (await json<{ data: CatalogueRecord[] }>(api.get('/v1/models?include_unavailable=0'))).data.length;
    expect(all).toBeGreaterThan(some);
    for (const value of ['TRUE', 'True', 'true']) expect((await json<{ data: unknown[] }>(api.get(`/v1/models?include_unavailable=${value}`))).data.length).toBe(all);
    for (const value of ['FALSE', 'False', 'false']) expect((await json<{ data: unknown[] }>(api.get(`/v1/models?include_unavailable=${value}`))).data.length).toBe(some);
    const message = await expectError(api.get('/v1/models?include_unavailable=yes'), 400, 'invalid_request');
    expect(message).toContain('include_unavailable');
  });
  it('a repeated single-value parameter is 400 naming it', async () => {
    expect(await expectError(api.get('/v1/models?capability=asr&capability=tts'), 400, 'invalid_request')).toContain('capability');
    expect(await expectError(api.get('/v1/models?include_unavailable=1&include_unavailable=0'), 400, 'invalid_request')).toContain('include_unavailable');
    expect(await expectError(api.get('/v1/models/test-asr/quote?seconds=1&seconds=2'), 400, 'invalid_request')).toContain('seconds');
    expect(await expectError(api.get('/v1/jobs?limit=5&limit=6'), 400, 'invalid_request')).toContain('limit');
  });
  it('numbers are decimal only', async () => {
    for (const seconds of ['0x10', '0b11', '0o7', '1e3', 'Infinity', ' 16', '16 ', '']) {
      expect(await expectError(api.get(`/v1/models/test-asr/quote?seconds=${encodeURIComponent(seconds)}`), 400, 'invalid_request'), seconds).toContain('seconds');
    }
    expect((await json<{ seconds: number }>(api.get('/v1/models/test-asr/quote?seconds=16.5'))).seconds).toBe(16.5);
    expect((await json<{ seconds: number }>(api.get('/v1/models/test-asr/quote?seconds=16'))).seconds).toBe(16);
    await expectError(api.get('/v1/jobs?limit=0x10'), 400, 'invalid_request');
    await expectError(api.get('/v1/jobs?limit=1e1'), 400, 'invalid_request');
    expect((await json<{ data: unknown[] }>(api.get('/v1/jobs?limit=10'))).data.length).toBeLessThanOrEqual(10);
  });
});

describe('11. the ledger charges the seconds the job shows', () => {
  it('a client recomputes its bill from duration_seconds exactly', async () => {
    const job = await json<Job>(api.postForm('/v1/speech-to-text', [model('test-asr-small'), { name: 'params', value: '{"seconds": 3.30816}' }, file()]));
    expect(job.status).toBe('succeeded');
    expect(job.duration_seconds).toBe('3.308');
    const rows = t.service.repos.ledger.forAccount((await t.service.keys.find(t.key))!.accountId).filter((r) => r.job_id === job.id);
    const seconds = Number(job.duration_seconds);
    const usage = rows.find((r) => r.kind === 'usage')!;
    expect(usage.seconds).toBe(seconds);
    expect(usage.amount_usd_micro).toBe(usageMicro({ currency: 'USD', ...PRICE }, seconds).usage);
    expect(usage.amount_usd_micro).toBe(3_308_000);
  });
});
