/**
 * Stem separation through the real service: the tiny random-weight Spleeter and UVR models
 * (scripts/tiny-models/make_tiny_product_models.py) imported through the model manager's own route, HTTP on
 * 127.0.0.1, SQLite in a temp dir, the engine in a worker process calling sherpa-onnx's C library through koffi.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Batch, CatalogueRecord, Job, ListResponse } from '../../../../src-main/common/api-types.js';
import { decodeWav, encodeWav } from '../../../../src-main/engines/audio/wav.js';
import { generatedModel, PRODUCT_MODELS_SCRIPT } from '../../../helpers/generated-models.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { Client, expectError, json, type Part } from '../../../helpers/http-client.js';
import { scaled } from '../../../helpers/time-scale.js';

let svc: TestService;
let api: Client;

async function importModel(path: string, id: string): Promise<void> {
  const r = await api.postJson('/v1/local/models/import', { path, id });
  expect(r.status, await r.clone().text()).toBe(202);
  await svc.service.models.whenImported(id);
}

beforeAll(async () => {
  svc = await startTestService({ holdSeconds: 60, workers: 1 });
  api = new Client(svc.url, svc.key);
  await importModel(generatedModel('spleeter-2stems', PRODUCT_MODELS_SCRIPT), 'tiny-spleeter');
  await importModel(generatedModel('uvr-mdx', PRODUCT_MODELS_SCRIPT), 'tiny-uvr');
}, scaled(120_000));
afterAll(() => svc?.stop());

function tone(n: number, period: number, amplitude = 0.3): Float32Array {
  return Float32Array.from({ length: n }, (_, i) => amplitude * Math.sin((2 * Math.PI * i) / period) * (1 + 0.5 * Math.sin(i / 5000)));
}

/** A stereo "song" of `seconds` at 44.1 kHz. */
function song(seconds: number, rate = 44100): Uint8Array<ArrayBuffer> {
  const n = Math.round(seconds * rate);
  return new Uint8Array(encodeWav([tone(n, 100), tone(n, 57)], rate));
}

function upload(model: string, data: Uint8Array<ArrayBuffer>, params?: Record<string, unknown>, name = 'song.wav'): Part[] {
  return [
    { name: 'model', value: model },
    ...(params ? [{ name: 'params', value: JSON.stringify(params) }] : []),
    { name: 'name', value: name },
    { name: 'file', file: { name, data } },
  ];
}

async function download(url: string): Promise<Response> {
  return fetch(url.startsWith('http') ? url : svc.url + url);
}

describe('the catalogue', () => {
  it('lists the imported models as stem-separation rows with their params schema, and the curated ones to download', async () => {
    const all = await json<ListResponse<CatalogueRecord>>(api.get('/v1/models?include_unavailable=true'));
    for (const id of ['tiny-spleeter', 'tiny-uvr']) {
      const row = all.data.find((m) => m.id === id);
      expect(row, id).toMatchObject({ status: 'available', capability: 'stem_separation', provider: 'local' });
      expect(JSON.stringify(row!.params_schema)).toContain('vocals-accompaniment');
      expect(row!.limits.max_audio_seconds).toBe(3600);
    }
    const curated = all.data.find((m) => m.id === 'spleeter-2stems-fp16');
    expect(curated).toMatchObject({ status: 'unavailable', capability: 'stem_separation' });
    expect(all.data.some((m) => m.id === 'local-stem-separation')).toBe(false);
  });
});

describe.each(['tiny-spleeter', 'tiny-uvr'])('%s on /v1/stem-separation', (model) => {
  it('splits a stereo song into vocals and accompaniment: two downloadable stereo WAVs of the song\'s exact length', { timeout: scaled(120_000) }, async () => {
    const seconds = 3.5;
    const job = await json<Job>(api.postForm('/v1/stem-separation', upload(model, song(seconds))));
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    expect(job.product).toBe('stem-separation');
    expect(Number(job.duration_seconds)).toBeCloseTo(seconds, 2);
    expect(job.result?.stems).toEqual(['vocals', 'accompaniment']);
    const artifacts = job.result!.artifacts!;
    expect(artifacts).toHaveLength(2);
    const decoded = [];
    for (const artifact of artifacts) {
      expect(artifact).toMatchObject({ content_type: 'audio/wav', sample_rate: 44100, channels: 2 });
      const r = await download(artifact.url);
      expect(r.status).toBe(200);
      const wav = decodeWav(new Uint8Array(await r.arrayBuffer()));
      expect(wav.sampleRate).toBe(44100);
      expect(wav.channels).toHaveLength(2);
      expect(wav.channels[0]!.length).toBe(Math.round(seconds * 44100));
      decoded.push(wav);
    }
    // Two different stems, each carrying sound.
    const energy = (x: Float32Array) => x.reduce((s, v) => s + v * v, 0);
    expect(energy(decoded[0]!.channels[0]!)).toBeGreaterThan(0);
    expect(energy(decoded[1]!.channels[0]!)).toBeGreaterThan(0);
    expect(decoded[0]!.channels[0]).not.toEqual(decoded[1]!.channels[0]);
  });

  it('keeps a mono 16 kHz upload mono at 16 kHz, and returns only the stem asked for', { timeout: scaled(120_000) }, async () => {
    const n = 16000 * 2;
    const data = new Uint8Array(encodeWav([tone(n, 40)], 16000));
    const job = await json<Job>(api.postForm('/v1/stem-separation', upload(model, data, { stems: 'accompaniment' }, 'mono.wav')));
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    expect(job.result?.stems).toEqual(['accompaniment']);
    expect(job.result!.artifacts).toHaveLength(1);
    const wav = decodeWav(new Uint8Array(await (await download(job.result!.artifacts![0]!.url)).arrayBuffer()));
    expect(wav.sampleRate).toBe(16000);
    expect(wav.channels).toHaveLength(1);
    expect(wav.channels[0]!.length).toBe(n);
  });
});

describe('batches and bad input', () => {
  it('separates a batch of files, each into its stems', { timeout: scaled(180_000) }, async () => {
    const parts: Part[] = [
      { name: 'model', value: 'tiny-spleeter' },
      { name: 'params', value: JSON.stringify({ output_channels: 1, output_sample_rate: 22050 }) },
      { name: 'file', file: { name: 'one.wav', data: song(1.5) } },
      { name: 'file', file: { name: 'two.wav', data: song(2) } },
    ];
    const created = await json<Batch>(api.postForm('/v1/stem-separation/batch', parts));
    let batch = created;
    for (let i = 0; i < 360 && batch.status !== 'complete'; i++) {
      await new Promise((r) => setTimeout(r, 500));
      batch = await json<Batch>(api.get(`/v1/stem-separation/batch/${created.id}`));
    }
    expect(batch.status, JSON.stringify(batch)).toBe('complete');
    expect(batch.succeeded).toBe(2);
    for (const item of batch.files) {
      expect(item.result?.artifacts, JSON.stringify(item)).toHaveLength(2);
      expect(item.result!.artifacts![0]).toMatchObject({ sample_rate: 22050, channels: 1 });
    }
  });

  it('refuses bad params with 400 before anything is queued', async () => {
    const before = (await json<ListResponse<Job>>(api.get('/v1/jobs?limit=100'))).data.length;
    await expectError(api.postForm('/v1/stem-separation', upload('tiny-spleeter', song(1), { stems: 'vocals-drums-bass-other' })), 400, 'invalid_params');
    await expectError(api.postForm('/v1/stem-separation', upload('tiny-spleeter', song(1), { strength: 1 })), 400, 'unsupported_param');
    await expectError(api.postForm('/v1/stem-separation', [{ name: 'model', value: 'tiny-spleeter' }]), 400, 'file_required');
    expect((await json<ListResponse<Job>>(api.get('/v1/jobs?limit=100'))).data.length).toBe(before);
  });

  it('refuses a model of another product', async () => {
    await expectError(api.postForm('/v1/voice-isolator', upload('tiny-uvr', song(1))), 400, 'invalid_params');
  });

  it('fails a recording longer than the model accepts with audio_too_long, before separating anything', async () => {
    // A WAV whose header states two hours (the data chunk's size) though only a second follows.
    const wav = Buffer.from(song(1));
    const dataAt = wav.indexOf('data', 12);
    wav.writeUInt32LE(2 * 60 * 60 * 44100 * 4, dataAt + 4);
    const job = await json<Job>(api.postForm('/v1/stem-separation', upload('tiny-spleeter', new Uint8Array(wav), undefined, 'two-hours.wav')));
    expect(job).toMatchObject({ status: 'failed', error_code: 'audio_too_long' });
    expect(job.error_message).toContain('up to 3600 s');
  });

  it('fails a job whose file is not audio with audio_decode_failed', async () => {
    const text = new TextEncoder().encode('not audio at all\n'.repeat(100));
    const job = await json<Job>(api.postForm('/v1/stem-separation', upload('tiny-uvr', text, undefined, 'notes.wav')));
    expect(job).toMatchObject({ status: 'failed', error_code: 'audio_decode_failed' });
  });
});
