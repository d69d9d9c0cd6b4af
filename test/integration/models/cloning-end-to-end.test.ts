/**
 * The curated zero-shot voices (issue 33, item 1) as a person installs them: the ZipVoice archive and its separate
 * Vocos vocoder, and the Pocket TTS archive, packed here in the shape of the sherpa-onnx release archives (top folder,
 * file names, the test WAVs and README beside the model) around the tiny random-weight models of
 * scripts/tiny-models/make_tiny_product_models.py, served from a local mirror, downloaded through the model manager's
 * route, verified against their sha256, extracted, detected as their family, and run by voice-cloning through the API.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueRecord, Job } from '../../../src-main/common/api-types.js';
import { encodeWav } from '../../../src-main/engines/audio/wav.js';
import { CURATED_PACKAGES, type ModelPackage } from '../../../src-main/models/packages/curated-models.js';
import type { PackageStatus } from '../../../src-main/models/packages/package-status.js';
import { generatedModel, PRODUCT_MODELS_SCRIPT } from '../../helpers/generated-models.js';
import { Client, json } from '../../helpers/http-client.js';
import { startRangeServer, type RangeServer } from '../../helpers/range-server.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { packArchive, sha256, type Archive } from '../../helpers/tiny-archives.js';
import { scaled } from '../../helpers/time-scale.js';

const ZIPVOICE = 'zipvoice-distill-int8-zh-en';
const POCKET = 'pocket-tts-int8-en';

let work: string;
let server: RangeServer;
let svc: TestService;
let client: Client;

const voice = new Uint8Array(encodeWav([Float32Array.from({ length: 24000 * 2 }, (_, i) => 0.3 * Math.sin(i / 6))], 24000));

/** The curated package with each file served by the mirror and pinned to the bytes served. */
function mirrored(id: string, bodies: Buffer[]): ModelPackage {
  const base = CURATED_PACKAGES.find((p) => p.id === id)!;
  const files = base.files.map((file, i) => {
    server.files.set(`/${base.id}/${basename(new URL(file.url).pathname)}`, { body: bodies[i]! });
    return { ...file, sha256: sha256(bodies[i]!), sizeBytes: bodies[i]!.length, pinSource: 'the tiny test model' };
  });
  return { ...base, files };
}

function zipvoiceArchive(): Archive {
  const dir = generatedModel('zipvoice-distill', PRODUCT_MODELS_SCRIPT);
  const files: Record<string, string | Buffer> = {};
  for (const name of ['encoder.int8.onnx', 'decoder.int8.onnx', 'tokens.txt', 'lexicon.txt', 'espeak-ng-data']) files[name] = join(dir, name);
  files['test_wavs/leijun-1.wav'] = Buffer.from(voice);
  files['README.md'] = Buffer.from('ZipVoice-Distill (tiny test copy)\n');
  return packArchive(work, 'sherpa-onnx-zipvoice-distill-int8-zh-en-emilia.tar.bz2', 'sherpa-onnx-zipvoice-distill-int8-zh-en-emilia', files);
}

function pocketArchive(): Archive {
  const dir = generatedModel('pocket-tts', PRODUCT_MODELS_SCRIPT);
  const files: Record<string, string | Buffer> = {};
  for (const name of ['lm_flow.int8.onnx', 'lm_main.int8.onnx', 'encoder.onnx', 'decoder.int8.onnx', 'text_conditioner.onnx', 'vocab.json', 'token_scores.json']) {
    files[name] = join(dir, name);
  }
  files['test_wavs/bria.wav'] = Buffer.from(voice);
  files['README.md'] = Buffer.from('Pocket TTS (tiny test copy)\n');
  return packArchive(work, 'sherpa-onnx-pocket-tts-int8-2026-01-26.tar.bz2', 'sherpa-onnx-pocket-tts-int8-2026-01-26', files);
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'voxdesk-cloning-e2e-'));
  server = await startRangeServer();
  const vocoder = readFileSync(join(generatedModel('zipvoice-distill', PRODUCT_MODELS_SCRIPT), 'vocos_24khz.onnx'));
  const packages = [mirrored(ZIPVOICE, [zipvoiceArchive().body, vocoder]), mirrored(POCKET, [pocketArchive().body])];
  svc = await startTestService({ modelPackages: packages, modelMirror: server.url, holdSeconds: 120, workers: 1 });
  client = new Client(svc.url, svc.key);
}, scaled(120_000));

afterAll(async () => {
  await svc?.stop();
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('the curated zero-shot voices', () => {
  it.each([
    [ZIPVOICE, 'zipvoice', { encoder: 'encoder.int8.onnx', decoder: 'decoder.int8.onnx', vocoder: 'vocos_24khz.onnx', tokens: 'tokens.txt', lexicon: 'lexicon.txt', dataDir: 'espeak-ng-data' }],
    [
      POCKET,
      'pocket',
      {
        lmFlow: 'lm_flow.int8.onnx',
        lmMain: 'lm_main.int8.onnx',
        encoder: 'encoder.onnx',
        decoder: 'decoder.int8.onnx',
        textConditioner: 'text_conditioner.onnx',
        vocabJson: 'vocab.json',
        tokenScoresJson: 'token_scores.json',
      },
    ],
  ])('%s downloads, verifies, extracts, is detected as %s and clones a voice', async (id, family, files) => {
    const before = await json<CatalogueRecord>(client.get(`/v1/models/${id}`));
    expect(before).toMatchObject({ status: 'unavailable', capability: 'voice_cloning', products: ['voice-cloning', 'voice-continuation', 'voice-conversion'] });

    expect([200, 202]).toContain((await client.post(`/v1/local/models/${id}/download`)).status);
    await svc.service.models.whenDone(id);
    const status = await json<PackageStatus>(client.get(`/v1/local/models/${id}`));
    expect(status).toMatchObject({ family, state: 'installed', verified: true });
    const installed = svc.service.models.installed(id)!.files;
    // Paths are relative to the package folder; the archive's top folder is looked into.
    expect(Object.fromEntries(Object.entries(installed).map(([role, path]) => [role, basename(path)]))).toEqual(files);
    expect(await json<CatalogueRecord>(client.get(`/v1/models/${id}`))).toMatchObject({ status: 'available', engine: 'sherpa-cloning' });

    const job = await json<Job>(
      client.postForm('/v1/voice-cloning', [
        { name: 'model', value: id },
        { name: 'reference_audio', file: { name: 'voice.wav', data: voice } },
        { name: 'reference_text', value: 'hello there' },
        { name: 'text', value: 'Hello world.' },
      ]),
    );
    expect({ status: job.status, error: job.error_code, message: job.error_message }).toEqual({ status: 'succeeded', error: null, message: null });
    expect(job.result).toMatchObject({ synthetic: true });
    const r = await fetch(job.result!.artifacts![0]!.url);
    expect(r.status).toBe(200);
  }, scaled(120_000));
});
