/**
 * Spoken-language identification on device (issue 34, item 3): the curated whisper-tiny-language-id package is
 * downloaded from a local mirror as sherpa-onnx packs sherpa-onnx-whisper-tiny.tar.bz2 (fp32 and int8 encoder and
 * decoder, tokens, test wavs), verified, extracted and detected as the language-id support family; then a Canary job
 * with `language` omitted is identified first and transcribed in the language heard, which the result reports. The
 * models are tiny random-weight ones: ../shared/models/tiny/tiny-whisper (a multilingual Whisper whose identification
 * hears English in jfk.wav and German in multilingual/test.wav) and the Canary made by
 * scripts/tiny-models/make_tiny_models.py. The upstream entry's pin is unconfirmed, so the test pins the tiny archive.
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
import { SHARED } from '../../helpers/system.js';
import { packArchive, TINY, type Archive } from '../../helpers/tiny-archives.js';
import { scaled } from '../../helpers/time-scale.js';

const JFK = join(SHARED, 'audio', 'jfk.wav');
const GERMAN = join(SHARED, 'audio', 'multilingual', 'test.wav');
const curated = (id: string) => CURATED_PACKAGES.find((p) => p.id === id)!;

let work: string;
let server: RangeServer;
let svc: TestService;
let client: Client;
const packages: ModelPackage[] = [];

/** The package with its one file served by the mirror from `archive`, pinned to the archive's sha256 and size. */
function serve(base: ModelPackage, archive: Archive): void {
  const { unconfirmed: _unconfirmed, ...file } = base.files[0]!;
  server.files.set(`/${base.id}/${basename(new URL(file.url).pathname)}`, { body: archive.body });
  packages.push({ ...base, files: [{ ...file, sha256: archive.sha256, sizeBytes: archive.body.length, pinSource: 'the tiny test archive' }] });
}

async function pull(id: string): Promise<PackageStatus> {
  const answer = await client.post(`/v1/local/models/${id}/download`);
  expect([200, 202]).toContain(answer.status);
  await svc.service.models.whenDone(id);
  return (await (await client.get(`/v1/local/models/${id}`)).json()) as PackageStatus;
}

async function transcribe(model: string, audio: string, params: Record<string, unknown> = {}) {
  const response = await client.postForm('/v1/speech-to-text', [
    { name: 'model', value: model },
    { name: 'params', value: JSON.stringify(params) },
    { name: 'file', file: { name: basename(audio), data: new Uint8Array(readFileSync(audio)) } },
  ]);
  return (await response.json()) as { status: string; error_code: string | null; error_message?: string; result: { text: string; language: string | null } | null };
}

async function canaryRow(): Promise<CatalogueRecord> {
  return (await (await client.get('/v1/models/canary-180m-flash')).json()) as CatalogueRecord;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'voxdesk-language-id-'));
  server = await startRangeServer();
  const whisper = join(TINY, 'tiny-whisper');
  serve(
    curated('whisper-tiny-language-id'),
    packArchive(work, 'sherpa-onnx-whisper-tiny.tar.bz2', 'sherpa-onnx-whisper-tiny', {
      'tiny-encoder.onnx': join(whisper, 'encoder.onnx'),
      'tiny-decoder.onnx': join(whisper, 'decoder.onnx'),
      'tiny-encoder.int8.onnx': join(whisper, 'encoder.onnx'),
      'tiny-decoder.int8.onnx': join(whisper, 'decoder.onnx'),
      'tiny-tokens.txt': join(whisper, 'tokens.txt'),
      'test_wavs/0.wav': JFK,
    }),
  );
  const canary = generatedModel('canary');
  serve(
    curated('canary-180m-flash'),
    packArchive(work, 'sherpa-onnx-nemo-canary-180m-flash-en-es-de-fr-int8.tar.bz2', 'sherpa-onnx-nemo-canary-180m-flash-en-es-de-fr-int8', {
      'encoder.int8.onnx': join(canary, 'encoder.int8.onnx'),
      'decoder.int8.onnx': join(canary, 'decoder.int8.onnx'),
      'tokens.txt': join(canary, 'tokens.txt'),
      'test_wavs/en.wav': JFK,
    }),
  );
  svc = await startTestService({ modelPackages: packages, modelMirror: server.url, holdSeconds: 120, workers: 1 });
  client = new Client(svc.url, svc.key);
});

afterAll(async () => {
  await svc?.stop();
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('spoken-language identification', () => {
  it('the curated entry is listed with its reason for having no pin, and its download is refused until one is confirmed', () => {
    const entry = curated('whisper-tiny-language-id');
    expect(entry).toMatchObject({ family: 'language-id', capability: 'support', licence: 'MIT' });
    expect(entry.files[0]).toMatchObject({ sha256: null, url: expect.stringMatching(/asr-models\/sherpa-onnx-whisper-tiny\.tar\.bz2$/) });
    expect(entry.files[0]!.unconfirmed).toMatch(/no release checksum/);
  });

  it('without it, Canary with language omitted transcribes as English; once installed, it identifies the language first and reports it', async () => {
    await pull('canary-180m-flash');
    const before = await transcribe('canary-180m-flash', GERMAN);
    expect({ job: before.status, language: before.result?.language }).toEqual({ job: 'succeeded', language: 'en' });
    expect(((await canaryRow()).params_schema.properties as Record<string, { description: string }>).language!.description).toMatch(/install whisper-tiny-language-id/);

    const status = await pull('whisper-tiny-language-id');
    expect(status).toMatchObject({ family: 'language-id', capability: 'support', state: 'installed', verified: true });
    expect(svc.service.models.installed('whisper-tiny-language-id')!.files).toEqual({ encoder: 'tiny-encoder.int8.onnx', decoder: 'tiny-decoder.int8.onnx' });
    expect(((await canaryRow()).params_schema.properties as Record<string, { description: string }>).language!.description).toMatch(/identification model finds it/);

    const german = await transcribe('canary-180m-flash', GERMAN);
    expect({ job: german.status, error: german.error_code, language: german.result?.language }).toEqual({ job: 'succeeded', error: null, language: 'de' });
    // The identified language reaches Canary's prompt: the same text as when told German.
    const told = await transcribe('canary-180m-flash', GERMAN, { language: 'de' });
    expect(german.result!.text).toBe(told.result!.text);
    expect(german.result!.text).not.toBe(before.result!.text);

    const english = await transcribe('canary-180m-flash', JFK);
    expect({ job: english.status, language: english.result?.language }).toEqual({ job: 'succeeded', language: 'en' });
    // A language named by the caller is used as given, not identified.
    const french = await transcribe('canary-180m-flash', GERMAN, { language: 'fr' });
    expect(french.result!.language).toBe('fr');
  }, scaled(180_000));
});
