/**
 * The voice families of issue 34 on device, from download to spoken WAV: each curated voice package is downloaded
 * by the service's model manager from a local HTTP server (through the mirror setting, with the curated entry's id,
 * URL and archive layout, pinned to the tiny archive's sha256 and size), verified, extracted and detected; the
 * catalogue lists its voices; and text-to-speech jobs through the HTTP API run sherpa-onnx's loader for the family on
 * a tiny random-weight model in its exact layout, made by scripts/tiny-models/make_tiny_models.py. The espeak-ng data
 * packed with them is the English subset of ../shared/models/tiny/tiny-kokoro (the machine has no other). The
 * models turn each token into a tone, so the length of the audio says how many tokens the frontend made.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueRecord } from '../../../src-main/common/api-types.js';
import { CURATED_PACKAGES, type ModelPackage } from '../../../src-main/models/packages/curated-models.js';
import type { PackageStatus } from '../../../src-main/models/packages/package-status.js';
import { generatedModel } from '../../helpers/generated-models.js';
import { Client } from '../../helpers/http-client.js';
import { startRangeServer, type RangeServer } from '../../helpers/range-server.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { packArchive, sha256, TINY, type Archive } from '../../helpers/tiny-archives.js';
import { scaled } from '../../helpers/time-scale.js';

const ESPEAK_EN = join(TINY, 'tiny-kokoro', 'espeak-ng-data');
const curated = (id: string) => CURATED_PACKAGES.find((p) => p.id === id)!;

let work: string;
let server: RangeServer;
let svc: TestService;
let client: Client;
const packages: ModelPackage[] = [];

/** The package with each file served by the mirror from its archive, pinned to the archive's sha256 and size. */
function serve(base: ModelPackage, archives: Archive[]): void {
  const files = base.files.map((file, i) => {
    const { unconfirmed: _unconfirmed, ...rest } = file;
    server.files.set(`/${base.id}/${basename(new URL(file.url).pathname)}`, { body: archives[i]!.body });
    return { ...rest, sha256: archives[i]!.sha256, sizeBytes: archives[i]!.body.length, pinSource: 'the tiny test archive' };
  });
  packages.push({ ...base, files });
}

/** A single file served as is (the Matcha vocoder). */
function fileArchive(name: string, path: string): Archive {
  const body = readFileSync(path);
  return { name, body, sha256: sha256(body) };
}

async function pull(id: string): Promise<PackageStatus> {
  const answer = await client.post(`/v1/local/models/${id}/download`);
  expect([200, 202]).toContain(answer.status);
  await svc.service.models.whenDone(id);
  return (await (await client.get(`/v1/local/models/${id}`)).json()) as PackageStatus;
}

async function row(id: string): Promise<CatalogueRecord> {
  return (await (await client.get(`/v1/models/${id}`)).json()) as CatalogueRecord;
}

interface JobBody {
  status: string;
  error_code: string | null;
  error_message?: string | null;
  result: { artifacts?: Array<{ url: string }> } | null;
}

/** Samples of the WAV artifact of a finished text-to-speech job (16-bit mono). */
async function speak(model: string, text: string, params: Record<string, unknown> = {}): Promise<{ samples: number; sampleRate: number }> {
  const response = await client.postJson('/v1/text-to-speech', { model, text, params: { output_format: 'wav', ...params } });
  const job = (await response.json()) as JobBody;
  expect({ status: job.status, error: job.error_code, message: job.error_message ?? null }).toEqual({ status: 'succeeded', error: null, message: null });
  const wav = Buffer.from(await (await fetch(job.result!.artifacts![0]!.url)).arrayBuffer());
  const data = wav.indexOf('data', 12);
  return { samples: wav.readUInt32LE(data + 4) / 2, sampleRate: wav.readUInt32LE(24) };
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'voxdesk-voices-'));
  server = await startRangeServer();
  const kokoro = generatedModel('kokoro-v1');
  serve(curated('kokoro-multi-lang-v1_0'), [
    packArchive(work, 'kokoro-multi-lang-v1_0.tar.bz2', 'kokoro-multi-lang-v1_0', {
      'model.onnx': join(kokoro, 'model.onnx'),
      'voices.bin': join(kokoro, 'voices.bin'),
      'tokens.txt': join(kokoro, 'tokens.txt'),
      'lexicon-us-en.txt': join(kokoro, 'lexicon-us-en.txt'),
      'lexicon-zh.txt': join(kokoro, 'lexicon-zh.txt'),
      'espeak-ng-data': ESPEAK_EN,
      'README.md': Buffer.from('tiny random-weight test model\n'),
    }),
  ]);
  const matcha = generatedModel('matcha');
  serve(curated('matcha-icefall-en-us-ljspeech'), [
    packArchive(work, 'matcha-icefall-en_US-ljspeech.tar.bz2', 'matcha-icefall-en_US-ljspeech', {
      'model-steps-3.onnx': join(matcha, 'model-steps-3.onnx'),
      'tokens.txt': join(matcha, 'tokens.txt'),
      'espeak-ng-data': ESPEAK_EN,
    }),
    fileArchive('hifigan_v2.onnx', join(matcha, 'hifigan_v2.onnx')),
  ]);
  const kitten = generatedModel('kitten');
  serve(curated('kitten-nano-en-v0_1'), [
    packArchive(work, 'kitten-nano-en-v0_1-fp16.tar.bz2', 'kitten-nano-en-v0_1-fp16', {
      'model.fp16.onnx': join(kitten, 'model.fp16.onnx'),
      'voices.bin': join(kitten, 'voices.bin'),
      'tokens.txt': join(kitten, 'tokens.txt'),
      'espeak-ng-data': ESPEAK_EN,
    }),
  ]);
  const coqui = generatedModel('coqui-bg');
  serve(curated('coqui-bg-cv'), [
    packArchive(work, 'vits-coqui-bg-cv.tar.bz2', 'vits-coqui-bg-cv', { 'model.onnx': join(coqui, 'model.onnx'), 'tokens.txt': join(coqui, 'tokens.txt') }),
  ]);
  svc = await startTestService({ modelPackages: packages, modelMirror: server.url, holdSeconds: 120, workers: 1 });
  client = new Client(svc.url, svc.key);
});

afterAll(async () => {
  await svc?.stop();
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('Kokoro v1.0 (multilingual)', () => {
  it('is listed before download with its languages and its 53 voices, each with its language', async () => {
    const before = await row('kokoro-multi-lang-v1_0');
    expect(before).toMatchObject({ status: 'unavailable', capability: 'tts', languages: ['en', 'es', 'fr', 'hi', 'it', 'ja', 'pt', 'zh'] });
    const speaker = (before.params_schema.properties as Record<string, { maximum: number; 'x-labels': Record<string, string>; 'x-languages': Record<string, string> }>).speaker!;
    expect(speaker.maximum).toBe(52);
    expect(speaker['x-labels']['3']).toBe('af_heart (English (US), female)');
    expect(speaker['x-labels']['28']).toBe('ef_dora (Spanish, female)');
    expect(speaker['x-languages']['45']).toBe('zh');
    const perLanguage = Object.values(speaker['x-languages']).reduce<Record<string, number>>((n, code) => ({ ...n, [code]: (n[code] ?? 0) + 1 }), {});
    expect(perLanguage).toEqual({ en: 28, es: 2, fr: 1, hi: 4, it: 2, ja: 5, pt: 3, zh: 8 });
  });

  it('downloads as upstream packs it, is detected with both lexicons, and each voice speaks its own language', async () => {
    const status = await pull('kokoro-multi-lang-v1_0');
    expect(status).toMatchObject({ family: 'kokoro', state: 'installed', verified: true });
    expect(svc.service.models.installed('kokoro-multi-lang-v1_0')!.files).toEqual({
      model: 'model.onnx',
      voices: 'voices.bin',
      tokens: 'tokens.txt',
      dataDir: 'espeak-ng-data',
      lexicon: 'lexicon-us-en.txt',
      lexiconZh: 'lexicon-zh.txt',
    });
    const after = await row('kokoro-multi-lang-v1_0');
    expect(after).toMatchObject({ status: 'available', languages: ['en', 'es', 'fr', 'hi', 'it', 'ja', 'pt', 'zh'] });

    // English through espeak-ng (en-us): h ə l ˈ o ʊ … — 15 tokens of 600 samples at 24 kHz.
    const english = await speak('kokoro-multi-lang-v1_0', 'hello world', { speaker: 3 });
    expect(english).toEqual({ samples: 9000, sampleRate: 24000 });
    // Chinese through lexicon-zh.txt: 你好 (n i h a u) 世 (ʂ ɨ) 界 (t ɕ j e), a full stop, and the two pads.
    const chinese = await speak('kokoro-multi-lang-v1_0', '你好世界。', { speaker: 45 });
    expect(chinese.samples).toBe(8400);
    expect((await speak('kokoro-multi-lang-v1_0', 'hello world', { speaker: 3, speed: 2 })).samples).toBe(4500);
    // A British voice phonemizes with espeak-ng's British English; a Spanish one with its Spanish, which the test's
    // English-only espeak-ng data lacks: no audio — the voice's language reaches sherpa-onnx with each request.
    expect((await speak('kokoro-multi-lang-v1_0', 'hello world', { speaker: 21 })).samples).toBe(9000);
    const spanish = (await (await client.postJson('/v1/text-to-speech', { model: 'kokoro-multi-lang-v1_0', text: 'hello world', params: { speaker: 28 } })).json()) as JobBody;
    expect({ status: spanish.status, error: spanish.error_code, message: spanish.error_message }).toEqual({ status: 'failed', error: 'engine_failed', message: 'the voice produced no audio for this text' });
  }, scaled(120_000));
});

describe('Matcha (acoustic model + vocoder)', () => {
  it('downloads its two files as upstream publishes them, is detected as Matcha, and speaks through the vocoder', async () => {
    const status = await pull('matcha-icefall-en-us-ljspeech');
    expect(status).toMatchObject({ family: 'matcha', state: 'installed', verified: true });
    expect(svc.service.models.installed('matcha-icefall-en-us-ljspeech')!.files).toEqual({
      acousticModel: 'model-steps-3.onnx',
      vocoder: 'hifigan_v2.onnx',
      tokens: 'tokens.txt',
      dataDir: 'espeak-ng-data',
    });
    expect(await row('matcha-icefall-en-us-ljspeech')).toMatchObject({ status: 'available', capability: 'tts', engine: 'sherpa-tts', languages: ['en'] });
    // 31 tokens (phonemes with blanks between, ^ and $) x 4 frames x 256 samples a frame, at 22.05 kHz.
    expect(await speak('matcha-icefall-en-us-ljspeech', 'hello world')).toEqual({ samples: 31744, sampleRate: 22050 });
    expect((await speak('matcha-icefall-en-us-ljspeech', 'hello world', { speed: 2 })).samples).toBe(15872);
  }, scaled(120_000));
});

describe('Kitten', () => {
  it('is told apart from Kokoro by its metadata, lists its eight named voices, and speaks with each', async () => {
    const before = await row('kitten-nano-en-v0_1');
    const labels = (before.params_schema.properties as Record<string, { 'x-labels': Record<string, string> }>).speaker!['x-labels'];
    expect(labels).toMatchObject({ '0': 'expr-voice-2-m', '7': 'expr-voice-5-f' });
    const status = await pull('kitten-nano-en-v0_1');
    expect(status).toMatchObject({ family: 'kitten', state: 'installed', verified: true });
    expect(svc.service.models.installed('kitten-nano-en-v0_1')!.files).toEqual({ model: 'model.fp16.onnx', voices: 'voices.bin', tokens: 'tokens.txt', dataDir: 'espeak-ng-data' });
    expect(await row('kitten-nano-en-v0_1')).toMatchObject({ status: 'available', languages: ['en'] });
    expect(await speak('kitten-nano-en-v0_1', 'hello world')).toEqual({ samples: 9000, sampleRate: 24000 });
    expect((await speak('kitten-nano-en-v0_1', 'hello world', { speaker: 7 })).samples).toBe(9000);
  }, scaled(120_000));
});

describe('Coqui character-level VITS (the EU languages Piper lacks)', () => {
  it('downloads as upstream packs it (model and tokens only), is detected as a character-level VITS and spells Bulgarian', async () => {
    // Not downloaded yet, its row already says what it will accept.
    expect(Object.keys((await row('coqui-bg-cv')).params_schema.properties as object)).toEqual(expect.arrayContaining(['speed', 'output_format']));
    const status = await pull('coqui-bg-cv');
    expect(status).toMatchObject({ family: 'vits', state: 'installed', verified: true, languages: ['bg'] });
    expect(svc.service.models.installed('coqui-bg-cv')!.files).toEqual({ model: 'model.onnx', tokens: 'tokens.txt' });
    expect(await row('coqui-bg-cv')).toMatchObject({ status: 'available', capability: 'tts', languages: ['bg'] });
    // 12 letters and spaces, a blank around each: 25 tokens of 256 samples.
    expect(await speak('coqui-bg-cv', 'здравей свят')).toEqual({ samples: 6400, sampleRate: 22050 });
    expect((await speak('coqui-bg-cv', 'здравей свят', { speed: 2 })).samples).toBe(3200);
  }, scaled(120_000));
});
