/**
 * Voice isolation and enhancement through the real service: HTTP on 127.0.0.1, SQLite in a temp dir, the engines in
 * worker processes. Also the rows of the products that have no on-device engine.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Batch, CatalogueRecord, Job, ListResponse } from '../../../../src-main/common/api-types.js';
import { gtcrnDefinition } from '../../../../src-main/engines/denoise/denoise-families.js';
import { rnnoiseDefinition } from '../../../../src-main/engines/denoise/rnnoise-models.js';
import type { ModelSource } from '../../../../src-main/engines/model-definition.js';
import { unavailableProductsSource, unservedReason } from '../../../../src-main/engines/products/unavailable-products.js';
import type { UnservedProduct } from '../../../../src-main/engines/products/product-params-schemas.js';
import { decodeWav, encodeWav } from '../../../../src-main/engines/audio/wav.js';
import { startTestService, testModelSource, type TestService } from '../../../helpers/service.js';
import { SHARED } from '../../../helpers/system.js';
import { Client, expectError, json, type Part } from '../../../helpers/http-client.js';
import { scaled } from '../../../helpers/time-scale.js';

const NOISY = new Uint8Array(readFileSync(join(SHARED, 'audio/noisy/gtcrn-mix.wav')));
const CLEAN = new Uint8Array(readFileSync(join(SHARED, 'audio/hifitts-6097/roots_02_morris_0219.wav')));

/** A GTCRN row as the model manager would list it once downloaded (here: the shared model file). */
const gtcrnSource = (): ModelSource => ({
  name: 'test-gtcrn',
  list: () => [
    {
      ...rnnoiseDefinition(),
      id: 'gtcrn-simple',
      name: 'GTCRN speech denoiser',
      ...gtcrnDefinition({ id: 'gtcrn-simple', dir: join(SHARED, 'models'), files: { model: 'gtcrn_simple.onnx' } }),
    },
  ],
});

let svc: TestService;
let api: Client;

beforeAll(async () => {
  svc = await startTestService({ holdSeconds: 60, workers: 1, extraModelSources: [testModelSource, gtcrnSource, unavailableProductsSource] });
  api = new Client(svc.url, svc.key);
});
afterAll(() => svc?.stop());

function upload(model: string, data: Uint8Array<ArrayBuffer>, params?: Record<string, unknown>, name = 'clip.wav'): Part[] {
  return [
    { name: 'model', value: model },
    ...(params ? [{ name: 'params', value: JSON.stringify(params) }] : []),
    { name: 'name', value: name },
    { name: 'file', file: { name, data } },
  ];
}

async function artifactWav(job: Job): Promise<ReturnType<typeof decodeWav>> {
  const url = job.result?.artifacts?.[0]?.url;
  expect(url, JSON.stringify(job)).toBeTruthy();
  const r = await fetch(url!.startsWith('http') ? url! : svc.url + url!);
  expect(r.status).toBe(200);
  return decodeWav(new Uint8Array(await r.arrayBuffer()));
}

describe.each([
  ['rnnoise', 'voice-isolator'],
  ['gtcrn-simple', 'audio-enhancement'],
] as const)('%s on /v1/%s', (model, product) => {
  let job: Job;

  it('denoises an upload into a WAV artifact of the same duration', async () => {
    job = await json<Job>(api.postForm(`/v1/${product}`, upload(model, NOISY)));
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    expect(job.model_id).toBe(model);
    expect(Number(job.duration_seconds)).toBeCloseTo(156302 / 16000, 2);
    const wav = await artifactWav(job);
    expect(wav.sampleRate).toBe(16000);
    expect(wav.channels[0]!.length).toBe(156302);
  });

  it('is read only on the route that created it', async () => {
    expect((await json<Job>(api.get(`/v1/${product}/${job.id}`))).id).toBe(job.id);
    await expectError(api.get(`/v1/stem-separation/${job.id}`), 404, 'not_found');
    const other = product === 'voice-isolator' ? 'audio-enhancement' : 'voice-isolator';
    await expectError(api.get(`/v1/${other}/${job.id}`), 404, 'not_found');
  });

  it('refuses bad params before queueing', async () => {
    await expectError(api.postForm(`/v1/${product}`, upload(model, NOISY, { strength: 3 })), 400, 'invalid_params');
    const message = await expectError(api.postForm(`/v1/${product}`, upload(model, NOISY, { denoise: true })), 400, 'unsupported_param');
    expect(message).toContain('denoise');
  });
});

describe('batches and failures', () => {
  it('denoises a batch of several files', { timeout: scaled(120_000) }, async () => {
    const parts: Part[] = [
      { name: 'model', value: 'rnnoise' },
      { name: 'params', value: JSON.stringify({ output_format: 'wav', strength: 0.8 }) },
      { name: 'file', file: { name: 'noisy.wav', data: NOISY } },
      { name: 'file', file: { name: 'clean.wav', data: CLEAN } },
      { name: 'file', file: { name: 'noisy-again.wav', data: NOISY } },
    ];
    const created = await json<Batch>(api.postForm('/v1/voice-isolator/batch', parts));
    let batch = created;
    for (let i = 0; i < 240 && batch.status !== 'complete'; i++) {
      await new Promise((r) => setTimeout(r, 500));
      batch = await json<Batch>(api.get(`/v1/voice-isolator/batch/${created.id}`));
    }
    expect(batch.status, JSON.stringify(batch)).toBe('complete');
    expect(batch.succeeded).toBe(3);
    for (const item of batch.files) expect(item.result?.artifacts?.[0]?.url).toBeTruthy();
  });

  it('cancels a running denoise job through the cancel route', { timeout: scaled(120_000) }, async () => {
    // Two minutes of the noisy clip: long enough to be caught running.
    const clip = decodeWav(NOISY).channels[0]!;
    const long = new Float32Array(120 * 16000).map((_, i) => clip[i % clip.length]!);
    const data = new Uint8Array(encodeWav([long], 16000));
    const parts: Part[] = [{ name: 'model', value: 'gtcrn-simple' }, { name: 'file', file: { name: 'long.wav', data } }];
    const batch = await json<Batch>(api.postForm('/v1/audio-enhancement/batch', parts));
    let job: Job | null = null;
    for (let i = 0; i < 400; i++) {
      const id = (await json<Batch>(api.get(`/v1/audio-enhancement/batch/${batch.id}`))).files[0]?.job_id;
      if (id) job = await json<Job>(api.get(`/v1/audio-enhancement/${id}`));
      if (job && job.status === 'running' && (job.progress ?? 0) > 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(job?.status, JSON.stringify(job)).toBe('running');
    await json(api.post(`/v1/audio-enhancement/${job!.id}/cancel`));
    for (let i = 0; i < 200 && job!.status === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      job = await json<Job>(api.get(`/v1/audio-enhancement/${job!.id}`));
    }
    expect(job).toMatchObject({ status: 'cancelled', error_code: 'cancelled' });
  });

  it('fails a job whose file is not audio with audio_decode_failed', async () => {
    const text = new TextEncoder().encode('not audio at all\n'.repeat(100));
    const job = await json<Job>(api.postForm('/v1/voice-isolator', upload('rnnoise', text, undefined, 'notes.wav')));
    expect(job.status).toBe('failed');
    expect(job.error_code).toBe('audio_decode_failed');
    expect(job.error_message).toMatch(/could not be decoded/);
  });
});

describe('products without an on-device engine', () => {
  const unserved = ['voice-design'];

  it('lists their rows only with include_unavailable=true', async () => {
    const plain = await json<ListResponse<CatalogueRecord>>(api.get('/v1/models'));
    expect(plain.data.map((m) => m.id)).not.toContain('local-voice-design');
    const all = await json<ListResponse<CatalogueRecord>>(api.get('/v1/models?include_unavailable=true'));
    for (const product of unserved) {
      const row = all.data.find((m) => m.id === `local-${product}`);
      expect(row, product).toMatchObject({ status: 'unavailable', provider: 'local', products: [product] });
      expect(row!.reason).toBe(unservedReason(product as UnservedProduct));
    }
    const rnnoise = plain.data.find((m) => m.id === 'rnnoise');
    expect(rnnoise).toMatchObject({ status: 'available', capability: 'noise_reduction' });
  });

  it('answers 422 model_unavailable with the reason when a request names them', async () => {
    // voice-cloning's and voice-conversion's curated ZipVoice, not downloaded: unavailable with the model manager's reason.
    const parts: Part[] = [
      { name: 'model', value: 'zipvoice-distill-int8-zh-en' },
      { name: 'text', value: 'hello' },
      { name: 'reference_audio', file: { name: 'ref.wav', data: CLEAN } },
    ];
    await expectError(api.postForm('/v1/voice-cloning', parts), 422, 'model_unavailable');
    await expectError(api.postForm('/v1/voice-conversion', upload('zipvoice-distill-int8-zh-en', NOISY)), 422, 'model_unavailable');
    const design = api.postJson('/v1/voice-design', { model: 'local-voice-design', text: 'hello', description: 'a calm voice' });
    expect(await expectError(design, 422, 'model_unavailable')).toContain('install one (voxdesk models pull kokoro-multi-lang-v1_0');
  });
});
