/**
 * One price source (issue 17, item 0), through real HTTP on a service started with a pricing file: for every product
 * route (single and batch) and the live WebSocket, the money recorded in the ledger is exactly what the catalogue's
 * quote says for the same seconds — the seconds the job shows (`duration_seconds`) or the live `response.done`
 * shows. Texts are priced before they are queued, recordings by their length, and the estimate is stored on the job.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Batch, Job, Quote } from '../../../../src-main/common/api-types.js';
import { textSeconds, toMicro } from '../../../../src-main/common/pricing.js';
import { BATCH_PRODUCTS, PRODUCT_INPUT, PRODUCTS, type Product } from '../../../../src-main/common/products.js';
import { Client, json, type Part } from '../../../helpers/http-client.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { FAST_WATCH, saveFolders } from '../../../helpers/watch-folders.js';
import { SHARED } from '../../../helpers/system.js';
import { scaled } from '../../../helpers/time-scale.js';

const PRICE = { request_fee_usd: 0.05, per_minute_usd: 0.01, options: { speaker_diarization: { per_minute_usd: 0.004 } } };
const MODELS: Record<Product, string> = {
  'speech-to-text': 'test-asr',
  'text-to-speech': 'test-tts',
  'voice-cloning': 'test-cloning',
  'voice-design': 'test-design',
  'voice-conversion': 'test-audio',
  'voice-continuation': 'test-cloning',
  'stem-separation': 'test-audio',
  'voice-isolator': 'test-audio',
  'audio-enhancement': 'test-audio',
};
const JFK = readFileSync(join(SHARED, 'audio/jfk.wav'));

let t: TestService;
let api: Client;
let pricingDir: string;
beforeAll(async () => {
  pricingDir = mkdtempSync(join(tmpdir(), 'voxdesk-price-'));
  const pricingFile = join(pricingDir, 'pricing.json');
  const models = Object.fromEntries([...new Set([...Object.values(MODELS), 'espeak-ng'])].map((id) => [id, PRICE]));
  writeFileSync(pricingFile, JSON.stringify({ models }));
  t = await startTestService({ holdSeconds: 30, pricingFile, workers: 2, watchTimings: FAST_WATCH });
  api = new Client(t.url, t.key);
}, scaled(60_000));
afterAll(async () => {
  await t?.stop();
  rmSync(pricingDir, { recursive: true, force: true });
});

const accountId = (): string => t.service.repos.accounts.findKey(t.key)!.account.id;
const ledger = () => t.service.repos.ledger.forAccount(accountId());
const micro = (rows: { amount_usd_micro: number }[]): number => rows.reduce((s, r) => s + r.amount_usd_micro, 0);

async function quoteFor(model: string, seconds: number, options: string[] = []): Promise<Quote> {
  return json<Quote>(api.get(`/v1/models/${model}/quote?seconds=${seconds}${options.length ? `&options=${options.join(',')}` : ''}`));
}

/** The body of one item of `product` (the test engine bills `seconds`). */
function single(product: Product, model: string, params: Record<string, unknown>): Promise<Response> {
  const kind = PRODUCT_INPUT[product];
  if (kind === 'text') return api.postJson(`/v1/${product}`, { model, text: 'Hello there.', params });
  if (kind === 'description') return api.postJson(`/v1/${product}`, { model, text: 'Hello there.', description: 'warm and slow', params });
  const parts: Part[] = [{ name: 'model', value: model }, { name: 'params', value: JSON.stringify(params) }];
  if (product === 'voice-cloning') parts.push({ name: 'text', value: 'Hello there.' }, { name: 'reference_audio', file: { name: 'ref.wav', data: new Uint8Array(JFK) } });
  else if (product === 'voice-continuation') parts.push({ name: 'text', value: 'Hello there.' }, { name: 'audio', file: { name: 'clip.wav', data: new Uint8Array(JFK) } });
  else parts.push({ name: 'file', file: { name: 'clip.wav', data: new Uint8Array(JFK) } });
  return api.postForm(`/v1/${product}`, parts);
}

function batch(product: Product, model: string, params: Record<string, unknown>, count: number): Promise<Response> {
  const kind = PRODUCT_INPUT[product];
  const texts = Array.from({ length: count }, (_, i) => `Line number ${i + 1}.`);
  if (kind === 'text') return api.postJson(`/v1/${product}/batch`, { model, params, items: texts.map((text) => ({ text })) });
  if (kind === 'description') return api.postJson(`/v1/${product}/batch`, { model, params, items: texts.map((text) => ({ text, description: 'bright' })) });
  const parts: Part[] = [{ name: 'model', value: model }, { name: 'params', value: JSON.stringify(params) }];
  if (product === 'voice-cloning') {
    parts.push({ name: 'reference_audio', file: { name: 'ref.wav', data: new Uint8Array(JFK) } });
    for (const text of texts) parts.push({ name: 'text', value: text });
  } else {
    for (let i = 0; i < count; i++) parts.push({ name: 'file', file: { name: `clip-${i}.wav`, data: new Uint8Array(JFK) } });
  }
  return api.postForm(`/v1/${product}/batch`, parts);
}

async function finished(product: Product, id: string): Promise<Job> {
  for (let i = 0; i < 600; i++) {
    const job = await json<Job>(api.get(`/v1/${product}/${id}`));
    if (job.finished_at) return job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`job ${id} did not finish`);
}

describe('ledger = quote for the same seconds, on every route', () => {
  for (const product of PRODUCTS) {
    const model = MODELS[product];
    it(`${product}: a single request`, async () => {
      const options = product === 'speech-to-text' ? ['speaker_diarization'] : [];
      const params = { seconds: 83.4567, ...(options.length ? { speaker_diarization: true } : {}) };
      const job = await finished(product, (await json<Job>(single(product, model, params))).id);
      expect(job.status).toBe('succeeded');
      expect(job.duration_seconds).toBe('83.457');
      const quote = await quoteFor(model, Number(job.duration_seconds), options);
      const rows = ledger().filter((r) => r.job_id === job.id);
      expect(micro(rows)).toBe(toMicro(quote.total_usd));
      expect(micro(rows.filter((r) => r.kind === 'request_fee'))).toBe(toMicro(quote.request_fee_usd));
      expect(micro(rows.filter((r) => r.kind === 'usage'))).toBe(toMicro(quote.usage_usd));
      expect(micro(rows.filter((r) => r.kind === 'option'))).toBe(toMicro(quote.options_usd));
      expect(rows.every((r) => r.product === product && r.provider === 'local')).toBe(true);

      // The estimate recorded when it was accepted: a text by its length, a recording by its stated length (11 s).
      const row = t.service.repos.jobs.get(job.id)!;
      const estimated = PRODUCT_INPUT[product] === 'audio' ? 11 : PRODUCT_INPUT[product] === 'audio+text' && product === 'voice-continuation' ? null : textSeconds('Hello there.');
      expect(row.estimated_seconds).toBe(estimated);
      const before = await quoteFor(model, estimated ?? 0, options);
      expect(row.estimated_usd_micro).toBe(toMicro(before.total_usd));
    });

    if (BATCH_PRODUCTS.includes(product)) {
      it(`${product}: a batch pays one fee plus its items' usage rounded once, as the quote for all their seconds says`, async () => {
        const created = await json<Batch>(batch(product, model, { seconds: 42.25 }, 3));
        let done = created;
        for (let i = 0; i < 600 && done.status !== 'complete'; i++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          done = await json<Batch>(api.get(`/v1/${product}/batch/${created.id}`));
        }
        expect(done).toMatchObject({ status: 'complete', succeeded: 3 });
        const rows = ledger().filter((r) => r.batch_id === created.id);
        const jobs = await Promise.all(done.files.map((f) => json<Job>(api.get(`/v1/${product}/${f.job_id}`))));
        const seconds = jobs.reduce((s, j) => s + Math.round(Number(j.duration_seconds) * 1000), 0) / 1000;
        const whole = await quoteFor(model, seconds);
        expect(micro(rows)).toBe(toMicro(whole.total_usd));
        expect(rows.filter((r) => r.kind === 'request_fee')).toHaveLength(1);
        expect(t.service.repos.batches.get(created.id)!.estimated_usd_micro).toBeGreaterThanOrEqual(toMicro(whole.request_fee_usd));
      });
    }
  }

  it('live text-to-speech: the session fee once and each speak by the seconds response.done shows', async () => {
    const ws = new WebSocket(`${t.url.replace('http', 'ws')}/v1/text-to-speech/realtime?model=espeak-ng`, { headers: { authorization: `Bearer ${t.key}` } });
    const messages: { type: string; audio_seconds?: number }[] = [];
    const done = new Promise<void>((resolve, reject) => {
      ws.on('message', (data, binary) => {
        if (binary) return;
        const message = JSON.parse(String(data)) as { type: string; audio_seconds?: number };
        messages.push(message);
        if (message.type === 'error') reject(new Error(String(data)));
        if (messages.filter((m) => m.type === 'response.done').length === 2) resolve();
      });
      ws.on('error', reject);
    });
    await new Promise<void>((resolve) => ws.once('open', () => resolve()));
    ws.send(JSON.stringify({ type: 'speak', text: 'The first sentence.' }));
    ws.send(JSON.stringify({ type: 'speak', text: 'And a second one.' }));
    await done;
    ws.close();
    const seconds = messages.filter((m) => m.type === 'response.done').map((m) => m.audio_seconds!);
    const rows = ledger().filter((r) => r.job_id === null && r.batch_id === null && r.model_id === 'espeak-ng');
    const quotes = await Promise.all(seconds.map((s) => quoteFor('espeak-ng', s)));
    expect(micro(rows)).toBe(toMicro(quotes[0]!.total_usd) + toMicro(quotes[1]!.usage_usd));
    expect(rows.map((r) => r.product)).toEqual(['text-to-speech', 'text-to-speech', 'text-to-speech']);
  });

  it('the audit\'s case: an HTTP job and a batch on the on-device espeak-ng are charged the pricing file\'s price, not $0', async () => {
    const job = await finished('text-to-speech', (await json<Job>(api.postJson('/v1/text-to-speech', { model: 'espeak-ng', text: 'Money shown and money recorded.' }))).id);
    expect(job.status).toBe('succeeded');
    const quote = await quoteFor('espeak-ng', Number(job.duration_seconds));
    expect(quote.request_fee_usd).toBe(0.05);
    const rows = ledger().filter((r) => r.job_id === job.id);
    expect(micro(rows)).toBe(toMicro(quote.total_usd));
    expect(micro(rows.filter((r) => r.kind === 'usage'))).toBeGreaterThan(0);

    const created = await json<Batch>(api.postJson('/v1/text-to-speech/batch', { model: 'espeak-ng', items: [{ text: 'One.' }, { text: 'Two.' }] }));
    let done = created;
    for (let i = 0; i < 600 && done.status !== 'complete'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      done = await json<Batch>(api.get(`/v1/text-to-speech/batch/${created.id}`));
    }
    expect(done).toMatchObject({ status: 'complete', succeeded: 2 });
    const items = await Promise.all(done.files.map((f) => json<Job>(api.get(`/v1/text-to-speech/${f.job_id}`))));
    const quotes = await Promise.all(items.map((j) => quoteFor('espeak-ng', Number(j.duration_seconds))));
    const batchRows = ledger().filter((r) => r.batch_id === created.id);
    expect(micro(batchRows)).toBe(toMicro(0.05) + quotes.reduce((sum, q) => sum + toMicro(q.usage_usd), 0));
  });

  it('a watched folder\'s recording is priced like an upload when accepted and charged like one', async () => {
    const dir = join(pricingDir, 'watched');
    mkdirSync(dir);
    writeFileSync(join(dir, 'meeting.wav'), JFK);
    await saveFolders(api, [{ path: dir, model: 'test-asr', params: { seconds: 83.4567 }, formats: ['txt'] }]);
    let job: Job | undefined;
    for (let i = 0; i < 1200 && !job?.finished_at; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      job = (await json<{ data: Job[] }>(api.get('/v1/jobs?limit=100'))).data.find((j) => j.name === 'meeting.wav');
    }
    expect(job?.status).toBe('succeeded');
    await saveFolders(api, []);
    // Accepted at the length its container states (11 s), as POST /v1/speech-to-text would have priced it.
    const row = t.service.repos.jobs.get(job!.id)!;
    expect(row.estimated_seconds).toBe(11);
    expect(row.estimated_usd_micro).toBe(toMicro((await quoteFor('test-asr', 11)).total_usd));
    const rows = ledger().filter((r) => r.job_id === job!.id);
    expect(micro(rows)).toBe(toMicro((await quoteFor('test-asr', Number(job!.duration_seconds))).total_usd));
  });
});
