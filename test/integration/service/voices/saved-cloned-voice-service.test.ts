/**
 * A saved cloned voice used everywhere voices are chosen (docs/voices.md), through the real service: the tiny
 * random-weight ZipVoice and Pocket TTS (scripts/tiny-models/make_tiny_product_models.py) and the tiny Kokoro v0.19
 * imported like a person's model folders, run by the real sherpa-onnx in worker processes. The OpenAI-compatible
 * speech route driven by the official `openai` SDK, the voice-cloning batch route, each bad input a 400 with no job.
 */
import OpenAI, { BadRequestError } from 'openai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Batch, Job, SavedVoice } from '../../../../src-main/common/api-types.js';
import { decodeWav, encodeWav } from '../../../../src-main/engines/audio/wav.js';
import { SYNTHETIC_COMMENT } from '../../../../src-main/engines/cloning/synthetic-tag.js';
import { generatedModel, PRODUCT_MODELS_SCRIPT } from '../../../helpers/generated-models.js';
import { Client, json } from '../../../helpers/http-client.js';
import { LiveClient, refusedUpgrade } from '../../../helpers/live-harness.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { requireCommand, SHARED } from '../../../helpers/system.js';
import { TINY } from '../../../helpers/tiny-archives.js';
import { waitFor, waitForJob } from '../../../helpers/two-instances.js';
import { scaled } from '../../../helpers/time-scale.js';

requireCommand('ffprobe', 'ffmpeg');
requireCommand('pocketsphinx_continuous', 'pocketsphinx');

const ZIPVOICE = 'tiny-zipvoice';
const POCKET = 'tiny-pocket';
const KOKORO = 'tiny-kokoro';

let t: TestService;
let api: Client;
let openai: OpenAI;
let stranger: OpenAI;
let cloned: SavedVoice;
let designed: { id: string; name: string };
let pricingDir: string;
/** Pocket TTS is priced (by a pricing file) so its live sessions' charges show in the ledger. */
const POCKET_PRICE = { request_fee_usd: 0.01, per_minute_usd: 0.6, options: {} };

/** A mono WAV of `seconds` of a wobbling tone. */
function tone(seconds: number, rate = 16000): Uint8Array<ArrayBuffer> {
  const n = Math.round(seconds * rate);
  return new Uint8Array(encodeWav([Float32Array.from({ length: n }, (_, i) => 0.3 * Math.sin(i / 5) * (1 + 0.5 * Math.sin(i / 3000)))], rate));
}

async function importModel(path: string, id: string): Promise<void> {
  const r = await api.postJson('/v1/local/models/import', { path, id });
  expect(r.status, await r.clone().text()).toBe(202);
  await t.service.models.whenImported(id);
}

const jobCount = async (): Promise<number> => (await json<{ data: unknown[] }>(api.get('/v1/jobs?limit=100'))).data.length;

beforeAll(async () => {
  pricingDir = mkdtempSync(join(tmpdir(), 'voxdesk-cloned-price-'));
  writeFileSync(join(pricingDir, 'pricing.json'), JSON.stringify({ models: { [POCKET]: POCKET_PRICE } }));
  t = await startTestService({ holdSeconds: 120, workers: 1, pricingFile: join(pricingDir, 'pricing.json') });
  api = new Client(t.url, t.key);
  openai = new OpenAI({ baseURL: `${t.url}/v1`, apiKey: t.key, maxRetries: 0, timeout: scaled(300_000) });
  stranger = new OpenAI({ baseURL: `${t.url}/v1`, apiKey: await t.service.keys.createKey('stranger'), maxRetries: 0, timeout: scaled(60_000) });
  await importModel(generatedModel('zipvoice-distill', PRODUCT_MODELS_SCRIPT), ZIPVOICE);
  await importModel(generatedModel('pocket-tts', PRODUCT_MODELS_SCRIPT), POCKET);
  await importModel(join(TINY, 'tiny-kokoro'), KOKORO);
  cloned = await json<SavedVoice>(
    api.postForm('/v1/voices', [
      { name: 'name', value: 'Narrator' },
      { name: 'reference_text', value: 'hello there' },
      { name: 'audio', file: { name: 'narrator.wav', data: tone(3) } },
    ]),
  );
  const job = await json<Job>(api.postJson('/v1/voice-design', { model: `${KOKORO}-voice-design`, text: 'hello', description: 'a woman', save_as: 'Designed' }));
  const done = job.status === 'succeeded' ? job : await waitForJob(t.url, t.key, 'voice-design', job.id);
  designed = done.result!.designed_voice!.saved_voice!;
}, scaled(300_000));
afterAll(async () => {
  await t?.stop();
  if (pricingDir) rmSync(pricingDir, { recursive: true, force: true });
});

describe('the OpenAI-compatible speech route with a saved cloned voice', () => {
  it('speaks the input in the voice with ZipVoice as a voice-cloning job, the voice named by id or {id}', { timeout: scaled(600_000) }, async () => {
    const response = await openai.audio.speech.create({ model: ZIPVOICE, voice: cloned.id, input: 'Hello world. This is a test.', response_format: 'wav' });
    const wav = decodeWav(new Uint8Array(await response.arrayBuffer()));
    expect(wav.sampleRate).toBe(24000);
    expect(wav.channels[0]!.length).toBeGreaterThan(0);
    const jobId = response.headers.get('x-voxdesk-job-id')!;
    const job = await json<Job>(api.get(`/v1/voice-cloning/${jobId}`));
    expect(job).toMatchObject({ product: 'voice-cloning', model_id: ZIPVOICE, status: 'succeeded' });
    expect(job.result).toMatchObject({ synthetic: true, reference_text: 'hello there' });
    const asObject = await openai.audio.speech.create({ model: ZIPVOICE, voice: { id: cloned.id } as unknown as string, input: 'Again.', response_format: 'pcm' });
    expect((await asObject.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  it('streams sentence by sentence: the first bytes arrive while the job still speaks the rest, and are its artifact', { timeout: scaled(600_000) }, async () => {
    const long = Array.from({ length: 30 }, (_, i) => `Sentence ${i + 1} is here.`).join(' ');
    const response = await openai.audio.speech.create({ model: POCKET, voice: cloned.id, input: long, response_format: 'pcm' });
    const jobId = response.headers.get('x-voxdesk-job-id')!;
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(first.value!.length).toBeGreaterThan(0);
    const running = await json<Job>(api.get(`/v1/voice-cloning/${jobId}`));
    let total = first.value!.length;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
    }
    expect(running.status).toBe('running');
    const finished = await json<Job>(api.get(`/v1/voice-cloning/${jobId}`));
    expect(finished.status).toBe('succeeded');
    const artifact = Buffer.from(await (await fetch(finished.result!.artifacts![0]!.url)).arrayBuffer());
    expect(artifact.length).toBe(total);
  });

  it('a WAV answer is the job’s tagged file, marked synthetic inside', { timeout: scaled(600_000) }, async () => {
    const wav = Buffer.from(await (await openai.audio.speech.create({ model: POCKET, voice: cloned.id, input: 'One. Two.', response_format: 'wav' })).arrayBuffer());
    expect(wav.toString('latin1')).toContain(SYNTHETIC_COMMENT);
  });

  it('speaks with Pocket TTS in every way the route answers: mp3 (the default) and sse events', { timeout: scaled(600_000) }, async () => {
    const mp3 = Buffer.from(await (await openai.audio.speech.create({ model: POCKET, voice: cloned.id, input: 'Hello there.' })).arrayBuffer());
    expect(mp3.length).toBeGreaterThan(0);
    expect(mp3.subarray(0, 3).toString('latin1') === 'ID3' || mp3[0] === 0xff).toBe(true);
    const sse = await openai.audio.speech.create({ model: POCKET, voice: cloned.id, input: 'Hello there.', response_format: 'wav', stream_format: 'sse' });
    const events = (await sse.text())
      .split('\n\n')
      .filter((block) => block.startsWith('data: '))
      .map((block) => JSON.parse(block.slice(6)) as { type: string; audio?: string });
    expect(events.at(-1)!.type).toBe('speech.audio.done');
    const audio = Buffer.concat(events.filter((e) => e.type === 'speech.audio.delta').map((e) => Buffer.from(e.audio!, 'base64')));
    expect(audio.subarray(0, 4).toString()).toBe('RIFF');
  });

  it('refuses what does not fit with a 400 naming it, before any job exists', async () => {
    const jobs = await jobCount();
    const refusal = async (call: Promise<unknown>): Promise<BadRequestError> => {
      const error = await call.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BadRequestError);
      return error as BadRequestError;
    };
    // Another account's voice is exactly an unknown one.
    const unknown = await refusal(openai.audio.speech.create({ model: ZIPVOICE, voice: 'voice_nosuchvoice', input: 'Hi' }));
    const foreign = await refusal(stranger.audio.speech.create({ model: ZIPVOICE, voice: cloned.id, input: 'Hi' }));
    expect(foreign.code).toBe(unknown.code);
    expect(foreign.message.replace(cloned.id, 'ID')).toBe(unknown.message.replace('voice_nosuchvoice', 'ID'));
    expect(foreign.param).toBe('voice');
    const openAiVoice = await refusal(openai.audio.speech.create({ model: ZIPVOICE, voice: 'alloy', input: 'Hi' }));
    expect(openAiVoice.message).toMatch(/voice-cloning model.*saved/);
    const designedWithCloning = await refusal(openai.audio.speech.create({ model: POCKET, voice: designed.id, input: 'Hi' }));
    expect(designedWithCloning.message).toContain(`designed voice: it speaks with model ${KOKORO}`);
    const clonedWithKokoro = await refusal(openai.audio.speech.create({ model: KOKORO, voice: cloned.id, input: 'Hi' }));
    expect(clonedWithKokoro.message).toMatch(new RegExp(`cloned voice: .*${ZIPVOICE}.*${POCKET}|cloned voice: .*${POCKET}.*${ZIPVOICE}`));
    const tooLong = await refusal(openai.audio.speech.create({ model: ZIPVOICE, voice: cloned.id, input: 'x'.repeat(1001) }));
    expect(tooLong.param).toBe('input');
    expect(await jobCount()).toBe(jobs);
  });
});

describe('batches with a saved cloned voice', () => {
  it('voice-cloning/batch speaks every text in the voice_id, as a single request does', { timeout: scaled(600_000) }, async () => {
    const created = await json<Batch>(
      api.postForm('/v1/voice-cloning/batch', [
        { name: 'model', value: POCKET },
        { name: 'voice_id', value: cloned.id },
        { name: 'text', value: 'One.' },
        { name: 'text', value: 'Two.' },
      ]),
    );
    const batch = await waitFor(`batch ${created.id}`, async () => {
      const b = await json<Batch>(api.get(`/v1/voice-cloning/batch/${created.id}`));
      return b.remaining === 0 ? b : undefined;
    }, scaled(300_000));
    expect(batch).toMatchObject({ succeeded: 2, failed: 0 });
    for (const item of batch.files) expect(item.result, JSON.stringify(item)).toMatchObject({ synthetic: true, reference_text: 'hello there' });
  });

  it('voice-conversion/batch re-voices every recording in the voice_id', { timeout: scaled(600_000) }, async () => {
    const jfk = new Uint8Array(readFileSync(join(SHARED, 'audio/jfk.wav')));
    const created = await json<Batch>(
      api.postForm('/v1/voice-conversion/batch', [
        { name: 'model', value: POCKET },
        { name: 'voice_id', value: cloned.id },
        { name: 'file', file: { name: 'a.wav', data: jfk } },
      ]),
    );
    const batch = await waitFor(`batch ${created.id}`, async () => {
      const b = await json<Batch>(api.get(`/v1/voice-conversion/batch/${created.id}`));
      return b.remaining === 0 ? b : undefined;
    }, scaled(300_000));
    expect(batch.files[0], JSON.stringify(batch.files[0])).toMatchObject({ status: 'succeeded' });
  });

  it('refuses another account’s voice_id in a batch as an unknown one, with no job', async () => {
    const jobs = await jobCount();
    const parts = (voice: string) => [
      { name: 'model', value: POCKET },
      { name: 'voice_id', value: voice },
      { name: 'text', value: 'One.' },
    ];
    const other = new Client(t.url, await t.service.keys.createKey('batch-stranger'));
    const foreign = await other.postForm('/v1/voice-cloning/batch', parts(cloned.id));
    const unknown = await api.postForm('/v1/voice-cloning/batch', parts('voice_nosuchvoice'));
    expect([foreign.status, unknown.status]).toEqual([400, 400]);
    const codes = [((await foreign.json()) as { error: { code: string } }).error.code, ((await unknown.json()) as { error: { code: string } }).error.code];
    expect(codes[0]).toBe(codes[1]);
    expect(await jobCount()).toBe(jobs);
  });
});

describe('live text to speech in a saved cloned voice', () => {
  const url = (query: string): string => `${t.url.replace('http', 'ws')}/v1/text-to-speech/realtime?${query}`;

  it('speaks sentence by sentence in the voice over the realtime socket, every voice of a model in one child process', { timeout: scaled(300_000) }, async () => {
    const account = t.service.repos.accounts.findKey(t.key)!.account.id;
    const liveCharges = () => t.service.repos.ledger.forAccount(account).filter((r) => r.job_id === null && r.model_id === POCKET);
    const before = liveCharges().length;
    const live = await LiveClient.open(url(`model=${POCKET}&voice=${cloned.id}`), { authorization: `Bearer ${t.key}` });
    expect((await live.waitFor('session.created')).session).toMatchObject({ sample_rate: 24000 });
    live.send({ type: 'speak', text: 'Hello there. How are you today?' });
    const first = (await live.waitFor('response.done', scaled(240_000))) as { samples: number; audio_seconds: number };
    live.send({ type: 'speak', text: 'And a second time.' });
    const second = (await live.waitFor('response.done', scaled(240_000))) as { samples: number };
    expect(first.samples).toBeGreaterThan(0);
    expect(second.samples).toBeGreaterThan(0);
    const audio = live.received.filter((r) => r.kind === 'audio').reduce((sum, r) => sum + r.bytes, 0);
    expect(audio).toBe((first.samples + second.samples) * 2);
    // Charged as every live voice is: the request fee once, then each speak's audio, with no job.
    const rows = await waitFor('the live charges', () => (liveCharges().length - before >= 3 ? liveCharges().slice(before) : undefined));
    expect(rows.map((r) => r.kind).sort()).toEqual(['request_fee', 'usage', 'usage']);
    expect(rows.filter((r) => r.kind === 'usage').every((r) => r.amount_usd_micro > 0 && r.product === 'text-to-speech')).toBe(true);
    // A second voice of the same model shares the child (and its model load).
    const running = t.service.live.neuralVoices();
    const another = await json<SavedVoice>(
      api.postForm('/v1/voices', [{ name: 'name', value: 'Second' }, { name: 'audio', file: { name: 'second.wav', data: tone(2) } }]),
    );
    const live2 = await LiveClient.open(url(`model=${POCKET}&voice=${another.id}`), { authorization: `Bearer ${t.key}` });
    live2.send({ type: 'speak', text: 'Hi.' });
    expect(((await live2.waitFor('response.done', scaled(240_000))) as { samples: number }).samples).toBeGreaterThan(0);
    expect(t.service.live.neuralVoices()).toBe(running);
    live.close();
    live2.close();
  });

  it('refuses another account’s voice exactly as an unknown one, and what else does not fit, before the upgrade', async () => {
    const strangerKey = await t.service.keys.createKey('live-stranger');
    const foreign = await refusedUpgrade(url(`model=${POCKET}&voice=${cloned.id}`), { authorization: `Bearer ${strangerKey}` });
    const unknown = await refusedUpgrade(url(`model=${POCKET}&voice=voice_nosuchvoice`), { authorization: `Bearer ${t.key}` });
    expect(foreign.status).toBe(400);
    expect(unknown.status).toBe(400);
    const code = (r: { body: Record<string, unknown> }): unknown => (r.body.error as { code: string }).code;
    expect(code(foreign)).toBe(code(unknown));
    const wordless = await json<SavedVoice>(api.postForm('/v1/voices', [{ name: 'name', value: 'Wordless' }, { name: 'audio', file: { name: 'w.wav', data: tone(2) } }]));
    for (const [query, expected] of [
      [`model=${POCKET}`, 'invalid_params'],
      [`model=${ZIPVOICE}&voice=${wordless.id}`, 'text_required'],
      [`model=${POCKET}&voice=${designed.id}`, 'invalid_params'],
      [`model=${KOKORO}&voice=${cloned.id}`, 'invalid_params'],
    ] as const) {
      const refused = await refusedUpgrade(url(query), { authorization: `Bearer ${t.key}` });
      expect({ query, status: refused.status, code: code(refused) }).toEqual({ query, status: 400, code: expected });
    }
  });
});
