/**
 * Voice cloning and voice continuation through the real service: the tiny random-weight ZipVoice
 * and Pocket TTS (scripts/tiny-models/make_tiny_product_models.py) imported through the model manager's own route and run by the
 * real sherpa-onnx in a worker process, HTTP on 127.0.0.1, SQLite in a temp dir, a pricing file so charges show in
 * the ledger, and the real PocketSphinx transcribing a reference sent without its words.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Batch, CatalogueRecord, Job, ListResponse } from '../../../../src-main/common/api-types.js';
import { isTerminal } from '../../../../src-main/common/job-states.js';
import { decodeWav, encodeWav } from '../../../../src-main/engines/audio/wav.js';
import { SYNTHETIC_COMMENT } from '../../../../src-main/engines/cloning/synthetic-tag.js';
import { generatedModel, PRODUCT_MODELS_SCRIPT } from '../../../helpers/generated-models.js';
import { Client, expectError, json, type Part } from '../../../helpers/http-client.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { requireCommand, SHARED } from '../../../helpers/system.js';
import { scaled } from '../../../helpers/time-scale.js';

requireCommand('pocketsphinx_continuous', 'pocketsphinx');

const MODEL = 'tiny-zipvoice';
const POCKET = 'tiny-pocket';
const PRICE = { request_fee_usd: 0, per_minute_usd: 0.06, options: {} };
const JFK = new Uint8Array(readFileSync(join(SHARED, 'audio/jfk.wav')));

let svc: TestService;
let api: Client;
let pricingDir: string;

beforeAll(async () => {
  pricingDir = mkdtempSync(join(tmpdir(), 'voxdesk-clone-price-'));
  const pricingFile = join(pricingDir, 'pricing.json');
  writeFileSync(pricingFile, JSON.stringify({ models: { [MODEL]: PRICE } }));
  svc = await startTestService({ holdSeconds: 120, workers: 1, pricingFile });
  api = new Client(svc.url, svc.key);
  const r = await api.postJson('/v1/local/models/import', { path: generatedModel('zipvoice-distill', PRODUCT_MODELS_SCRIPT), id: MODEL });
  expect(r.status, await r.clone().text()).toBe(202);
  await svc.service.models.whenImported(MODEL);
  const pocket = await api.postJson('/v1/local/models/import', { path: generatedModel('pocket-tts', PRODUCT_MODELS_SCRIPT), id: POCKET });
  expect(pocket.status, await pocket.clone().text()).toBe(202);
  await svc.service.models.whenImported(POCKET);
}, scaled(120_000));
afterAll(async () => {
  await svc?.stop();
  rmSync(pricingDir, { recursive: true, force: true });
});

const accountId = (): string => svc.service.repos.accounts.findKey(svc.key)!.account.id;
const charged = (): number => svc.service.repos.ledger.forAccount(accountId()).reduce((s, r) => s + r.amount_usd_micro, 0);
const jobCount = async (): Promise<number> => (await json<ListResponse<Job>>(api.get('/v1/jobs?limit=100'))).data.length;

/** A mono WAV of `seconds` of a wobbling tone at `rate`. */
function tone(seconds: number, rate = 16000): Uint8Array<ArrayBuffer> {
  const n = Math.round(seconds * rate);
  return new Uint8Array(encodeWav([Float32Array.from({ length: n }, (_, i) => 0.3 * Math.sin(i / 5) * (1 + 0.5 * Math.sin(i / 3000)))], rate));
}

function cloning(parts: { reference?: Uint8Array<ArrayBuffer>; referenceText?: string; text?: string | string[]; params?: Record<string, unknown> }): Part[] {
  const texts = parts.text === undefined ? [] : Array.isArray(parts.text) ? parts.text : [parts.text];
  return [
    { name: 'model', value: MODEL },
    ...(parts.params ? [{ name: 'params', value: JSON.stringify(parts.params) }] : []),
    ...(parts.reference ? [{ name: 'reference_audio', file: { name: 'voice.wav', data: parts.reference } }] : []),
    ...(parts.referenceText !== undefined ? [{ name: 'reference_text', value: parts.referenceText }] : []),
    ...texts.map((value) => ({ name: 'text', value })),
  ];
}

/**
 * POSTs a job and, when the hold window ends before it does (a busy shared machine), reads it until it ends: what is
 * checked is the finished job, never how long it took.
 */
async function submit(path: string, parts: Part[]): Promise<Job> {
  let job = await json<Job>(api.postForm(path, parts));
  for (let i = 0; i < 6000 && !isTerminal(job.status); i++) {
    await new Promise((r) => setTimeout(r, 100));
    job = await json<Job>(api.get(`${path}/${job.id}`));
  }
  return job;
}

async function download(url: string): Promise<Uint8Array> {
  const r = await fetch(url.startsWith('http') ? url : svc.url + url);
  expect(r.status).toBe(200);
  return new Uint8Array(await r.arrayBuffer());
}

describe('the catalogue', () => {
  it('lists the imported ZipVoice as one row serving both products, and the curated ZipVoice and Pocket TTS to download', async () => {
    const all = await json<ListResponse<CatalogueRecord>>(api.get('/v1/models?include_unavailable=true'));
    const row = all.data.find((m) => m.id === MODEL);
    expect(row).toMatchObject({ status: 'available', capability: 'voice_cloning', provider: 'local', products: ['voice-cloning', 'voice-continuation', 'voice-conversion'] });
    expect(row!.limits).toMatchObject({ max_audio_seconds: 600, max_text_chars: 1000 });
    const schema = JSON.stringify(row!.params_schema);
    for (const word of ['num_steps', 'include_original', 'reference_audio', 'reference_text']) expect(schema).toContain(word);
    for (const id of ['zipvoice-distill-int8-zh-en', 'pocket-tts-int8-en']) {
      expect(all.data.find((m) => m.id === id), id).toMatchObject({ status: 'unavailable', capability: 'voice_cloning' });
    }
    expect(all.data.some((m) => ['local-voice-cloning', 'local-voice-continuation', 'local-voice-conversion'].includes(m.id))).toBe(false);
  });
});

describe('voice-cloning', () => {
  it('speaks the text in the reference voice: a 24 kHz WAV marked synthetic, charged per minute of speech made', { timeout: scaled(600_000) }, async () => {
    const before = charged();
    const job = await submit('/v1/voice-cloning', cloning({ reference: tone(3), referenceText: 'hello there', text: 'Hello world. This is a test.' }));
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    expect(job.result).toMatchObject({ synthetic: true, voice_source: 'reference_audio', reference_text: 'hello there' });
    const [artifact] = job.result!.artifacts!;
    expect(artifact).toMatchObject({ content_type: 'audio/wav', sample_rate: 24000, channels: 1 });
    expect(artifact!.expires_at).toBeTruthy();
    const bytes = await download(artifact!.url);
    const wav = decodeWav(bytes);
    expect(wav.sampleRate).toBe(24000);
    expect(wav.channels[0]!.length).toBeGreaterThan(24000 * 0.3);
    expect(Buffer.from(bytes).toString('utf8')).toContain(SYNTHETIC_COMMENT);
    const seconds = Number(job.duration_seconds);
    expect(seconds).toBeCloseTo(wav.channels[0]!.length / 24000, 1);
    expect(charged() - before).toBe(Math.round((seconds / 60) * PRICE.per_minute_usd * 1e6));
  });

  it('speaks in a cloned voice the account saved (voice_id), and refuses an id that is not one of its saved voices, or both parts at once', { timeout: scaled(600_000) }, async () => {
    const saved = await json<{ id: string; kind: string }>(
      api.postForm('/v1/voices', [
        { name: 'name', value: 'Narrator' },
        { name: 'reference_text', value: 'hello there' },
        { name: 'audio', file: { name: 'narrator.wav', data: tone(3) } },
      ]),
    );
    expect(saved.kind).toBe('cloned');
    const job = await submit('/v1/voice-cloning', [...cloning({ text: 'Read in the saved voice.' }), { name: 'voice_id', value: saved.id }]);
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    expect(job.result).toMatchObject({ synthetic: true, reference_text: 'hello there' });
    const jobs = await jobCount();
    for (const [parts, message] of [
      [[...cloning({ text: 'x' }), { name: 'voice_id', value: 'voice_nosuchvoice' }], /not one of this account's saved voices/],
      [[...cloning({ reference: tone(3), text: 'x' }), { name: 'voice_id', value: saved.id }], /either a reference_audio part or a voice_id/],
    ] as [Part[], RegExp][]) {
      const refused = await api.postForm('/v1/voice-cloning', parts);
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(message);
    }
    expect(await jobCount()).toBe(jobs);
  });

  it('transcribes a reference sent without its words with the installed recognizer (PocketSphinx), at any sample rate', { timeout: scaled(600_000) }, async () => {
    const job = await submit('/v1/voice-cloning', cloning({ reference: JFK, text: 'Ask what you can do.', params: { output_format: 'mp3', output_sample_rate: 24000 } }));
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    expect(job.result?.reference_text).toMatch(/country/i);
    expect(job.result!.artifacts![0]).toMatchObject({ content_type: 'audio/mpeg', sample_rate: 24000 });
    // An 8 kHz reference is resampled to the model's 24 kHz before the model hears it.
    const low = await submit('/v1/voice-cloning', cloning({ reference: tone(2, 8000), referenceText: 'hi', text: 'Again.' }));
    expect(low.status, JSON.stringify(low)).toBe('succeeded');
  });

  it('speaks a batch of texts in one uploaded voice, one job each', { timeout: scaled(600_000) }, async () => {
    const created = await json<Batch>(api.postForm('/v1/voice-cloning/batch', cloning({ reference: tone(2), referenceText: 'hi there', text: ['One.', 'Two.'] })));
    let batch = created;
    for (let i = 0; i < 600 && batch.status !== 'complete'; i++) {
      await new Promise((r) => setTimeout(r, 200));
      batch = await json<Batch>(api.get(`/v1/voice-cloning/batch/${created.id}`));
    }
    expect(batch).toMatchObject({ status: 'complete', succeeded: 2, failed: 0 });
    for (const item of batch.files) expect(item.result, JSON.stringify(item)).toMatchObject({ synthetic: true });
  });
});

describe('Pocket TTS', () => {
  it('clones from the audio alone (no transcript, no recognizer asked) and continues a recording', { timeout: scaled(600_000) }, async () => {
    const parts: Part[] = [
      { name: 'model', value: POCKET },
      { name: 'reference_audio', file: { name: 'voice.wav', data: tone(2, 44100) } },
      { name: 'text', value: 'Hello world. This is a test.' },
    ];
    const job = await submit('/v1/voice-cloning', parts);
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    expect(job.result).toMatchObject({ synthetic: true, voice_source: 'reference_audio' });
    expect(job.result?.reference_text).toBeUndefined();
    const wav = decodeWav(await download(job.result!.artifacts![0]!.url));
    expect(wav.sampleRate).toBe(24000);
    expect(wav.channels[0]!.length).toBeGreaterThan(24000);
    const continuation: Part[] = [
      { name: 'model', value: POCKET },
      { name: 'params', value: JSON.stringify({ output_sample_rate: 16000, num_steps: 2 }) },
      { name: 'audio', file: { name: 'start.wav', data: tone(1.5) } },
      { name: 'text', value: 'And you.' },
    ];
    const continued = await submit('/v1/voice-continuation', continuation);
    expect(continued.status, JSON.stringify(continued)).toBe('succeeded');
    expect(continued.result).toMatchObject({ continuation_start: 1.5, voice_source: 'audio' });
    expect(continued.result!.artifacts![0]).toMatchObject({ sample_rate: 16000 });
  });
});

describe('voice-continuation', () => {
  it('returns the recording followed by the new speech, or the new speech alone', { timeout: scaled(600_000) }, async () => {
    const parts = (params?: Record<string, unknown>): Part[] => [
      { name: 'model', value: MODEL },
      ...(params ? [{ name: 'params', value: JSON.stringify(params) }] : []),
      { name: 'audio', file: { name: 'start.wav', data: tone(2.5) } },
      { name: 'reference_text', value: 'the start of it' },
      { name: 'text', value: 'And here is how it ends.' },
    ];
    const whole = await submit('/v1/voice-continuation', parts());
    expect(whole.status, JSON.stringify(whole)).toBe('succeeded');
    expect(whole.result).toMatchObject({ synthetic: true, voice_source: 'audio', continuation_start: 2.5 });
    const alone = await submit('/v1/voice-continuation', parts({ include_original: false }));
    expect(alone.status, JSON.stringify(alone)).toBe('succeeded');
    expect(alone.result?.continuation_start).toBe(0);
    const wholeWav = decodeWav(await download(whole.result!.artifacts![0]!.url));
    const aloneWav = decodeWav(await download(alone.result!.artifacts![0]!.url));
    expect(wholeWav.channels[0]!.length - aloneWav.channels[0]!.length).toBe(2.5 * 24000);
    // Charged for the new speech only, not for the recording it repeats.
    expect(Number(whole.duration_seconds)).toBeCloseTo(aloneWav.channels[0]!.length / 24000, 2);
  });

  it('has no batch route', async () => {
    await expectError(api.postForm('/v1/voice-continuation/batch', [{ name: 'model', value: MODEL }]), 404, 'not_found');
  });
});

describe('voice-conversion', () => {
  it('re-voices a recording utterance by utterance in the uploaded voice, keeping its length and the times of its words', { timeout: scaled(600_000) }, async () => {
    const before = charged();
    const parts: Part[] = [
      { name: 'model', value: MODEL },
      { name: 'file', file: { name: 'jfk.wav', data: JFK } },
      { name: 'reference_audio', file: { name: 'voice.wav', data: tone(2) } },
      { name: 'reference_text', value: 'hello there' },
    ];
    const job = await submit('/v1/voice-conversion', parts);
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    expect(job.result).toMatchObject({ synthetic: true, voice_source: 'reference_audio', reference_text: 'hello there' });
    expect(job.result?.text).toMatch(/country/i);
    const segments = job.result!.segments!;
    expect(segments.length).toBeGreaterThan(0);
    for (const s of segments) expect(['padded', 'sped_up', 'cut']).toContain(s.fit);
    const wav = decodeWav(await download(job.result!.artifacts![0]!.url));
    expect(wav.sampleRate).toBe(24000);
    expect(wav.channels[0]!.length).toBe(11 * 24000);
    // Silent before the first utterance, speech inside it.
    const firstAt = Math.round(segments[0]!.start * 24000);
    const energy = (from: number, to: number) => wav.channels[0]!.slice(from, to).reduce((sum, v) => sum + v * v, 0);
    if (firstAt > 2400) expect(energy(0, firstAt - 1)).toBe(0);
    expect(energy(firstAt, Math.round(segments[0]!.end * 24000))).toBeGreaterThan(0);
    // Priced by the recording's length, like the other audio products.
    expect(Number(job.duration_seconds)).toBeCloseTo(11, 2);
    expect(charged() - before).toBe(Math.round((11 / 60) * PRICE.per_minute_usd * 1e6));
  });

  it('re-voices a batch of recordings in one uploaded voice', { timeout: scaled(600_000) }, async () => {
    const parts: Part[] = [
      { name: 'model', value: POCKET },
      { name: 'reference_audio', file: { name: 'voice.wav', data: tone(2) } },
      { name: 'file', file: { name: 'one.wav', data: JFK } },
      { name: 'file', file: { name: 'two.wav', data: JFK } },
    ];
    const created = await json<Batch>(api.postForm('/v1/voice-conversion/batch', parts));
    let batch = created;
    for (let i = 0; i < 1200 && batch.status !== 'complete'; i++) {
      await new Promise((r) => setTimeout(r, 200));
      batch = await json<Batch>(api.get(`/v1/voice-conversion/batch/${created.id}`));
    }
    expect(batch).toMatchObject({ status: 'complete', succeeded: 2, failed: 0 });
    expect(batch.files.map((f) => f.name)).toEqual(['one.wav', 'two.wav']);
    for (const item of batch.files) expect(item.result, JSON.stringify(item)).toMatchObject({ synthetic: true, voice_source: 'reference_audio' });
  });

  it('refuses a conversion without the voice to speak in, or with one too short, before a job exists', async () => {
    const jobs = await jobCount();
    const noVoice: Part[] = [{ name: 'model', value: MODEL }, { name: 'file', file: { name: 'jfk.wav', data: JFK } }];
    expect(await expectError(api.postForm('/v1/voice-conversion', noVoice), 400, 'file_required')).toContain('reference_audio');
    const short: Part[] = [...noVoice, { name: 'reference_audio', file: { name: 'v.wav', data: tone(0.4) } }];
    await expectError(api.postForm('/v1/voice-conversion', short), 400, 'invalid_request');
    const original: Part[] = [{ name: 'model', value: MODEL }, { name: 'params', value: '{"include_original":false}' }, ...noVoice.slice(1)];
    await expectError(api.postForm('/v1/voice-conversion', original), 400, 'unsupported_param');
    expect(await jobCount()).toBe(jobs);
  });
});

describe('bad input: a clear 400, no job, nothing charged', () => {
  const cases: Array<[string, () => Part[], string, RegExp]> = [
    ['no reference audio', () => cloning({ text: 'Hello.', referenceText: 'hi' }), 'file_required', /reference_audio part is required/],
    ['a reference shorter than 1 s', () => cloning({ reference: tone(0.5), referenceText: 'hi', text: 'Hello.' }), 'invalid_request', /0\.50 s long; a voice needs at least 1 s/],
    ['a reference longer than 30 s', () => cloning({ reference: tone(31), referenceText: 'hi', text: 'Hello.' }), 'invalid_request', /31 s long; at most 30 s/],
    ['a reference that is not audio', () => cloning({ reference: new TextEncoder().encode('not audio\n'.repeat(50)) as Uint8Array<ArrayBuffer>, referenceText: 'hi', text: 'Hello.' }), 'invalid_request', /could not be read as audio/],
    ['a text over the limit', () => cloning({ reference: tone(2), referenceText: 'hi', text: 'a'.repeat(1001) }), 'text_too_long', /1001 characters/],
    ['an empty text', () => cloning({ reference: tone(2), referenceText: 'hi', text: '   ' }), 'text_required', /text/],
    ['no text', () => cloning({ reference: tone(2), referenceText: 'hi' }), 'text_required', /text part is required/],
    ['an empty reference_text', () => cloning({ reference: tone(2), referenceText: ' ', text: 'Hello.' }), 'text_required', /reference_text part is empty/],
    ['a voice fetched from a URL instead of uploaded', () => [...cloning({ text: 'Hello.' }), { name: 'reference_url', value: 'https://example.com/voice.wav' }], 'unsupported_param', /unknown part "reference_url"/],
    ['continuation\'s param on cloning', () => cloning({ reference: tone(2), referenceText: 'hi', text: 'Hello.', params: { include_original: true } }), 'unsupported_param', /include_original/],
    ['too many steps', () => cloning({ reference: tone(2), referenceText: 'hi', text: 'Hello.', params: { num_steps: 64 } }), 'invalid_params', /num_steps/],
  ];
  it.each(cases)('%s', async (_what, parts, code, message) => {
    const jobs = await jobCount();
    const money = charged();
    expect(await expectError(api.postForm('/v1/voice-cloning', parts()), 400, code)).toMatch(message);
    expect(await jobCount()).toBe(jobs);
    expect(charged()).toBe(money);
  });

  it('a continuation without its audio or its words', async () => {
    await expectError(api.postForm('/v1/voice-continuation', [{ name: 'model', value: MODEL }, { name: 'text', value: 'x' }]), 400, 'file_required');
    const noText: Part[] = [{ name: 'model', value: MODEL }, { name: 'audio', file: { name: 'a.wav', data: tone(2) } }];
    await expectError(api.postForm('/v1/voice-continuation', noText), 400, 'text_required');
    const tooShort: Part[] = [{ name: 'model', value: MODEL }, { name: 'audio', file: { name: 'a.wav', data: tone(0.3) } }, { name: 'text', value: 'x' }];
    expect(await expectError(api.postForm('/v1/voice-continuation', tooShort), 400, 'invalid_request')).toContain('the audio recording is 0.30 s long');
  });
});
