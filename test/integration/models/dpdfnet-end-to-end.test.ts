/**
 * DPDFNet, the third enhancement model (issue 34, item 3): the curated dpdfnet-baseline package is downloaded from a
 * local mirror as the single .onnx file sherpa-onnx publishes (its pin is unconfirmed upstream, so the test pins the
 * tiny file), verified and detected as DPDFNet from its metadata; voice-isolator and audio-enhancement jobs through
 * the HTTP API stream a noisy recording through sherpa-onnx's OnlineSpeechDenoiser with it and give back a WAV of the
 * same length. The model is the tiny random-weight one scripts/tiny-models/make_tiny_models.py makes in the exact
 * layout (one STFT frame and the recurrent state in and out, the metadata sherpa-onnx checks against the graph); it
 * scales each frequency bin, so the output is quieter than the input. A model whose profile sherpa-onnx cannot
 * stream (it would end the process) is listed unavailable with the reason.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueRecord } from '../../../src-main/common/api-types.js';
import { decodeWav } from '../../../src-main/engines/audio/wav.js';
import { CURATED_PACKAGES, type ModelPackage } from '../../../src-main/models/packages/curated-models.js';
import type { PackageStatus } from '../../../src-main/models/packages/package-status.js';
import { generatedModel } from '../../helpers/generated-models.js';
import { Client } from '../../helpers/http-client.js';
import { startRangeServer, type RangeServer } from '../../helpers/range-server.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { SHARED } from '../../helpers/system.js';
import { sha256 } from '../../helpers/tiny-archives.js';
import { scaled } from '../../helpers/time-scale.js';

const NOISY = join(SHARED, 'audio', 'noisy', 'gtcrn-mix.wav');

let work: string;
let server: RangeServer;
let svc: TestService;
let client: Client;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'voxdesk-dpdfnet-'));
  server = await startRangeServer();
  const base = CURATED_PACKAGES.find((p) => p.id === 'dpdfnet-baseline')!;
  const body = readFileSync(join(generatedModel('dpdfnet'), 'dpdfnet_baseline.onnx'));
  const { unconfirmed: _unconfirmed, ...file } = base.files[0]!;
  server.files.set(`/${base.id}/${basename(new URL(file.url).pathname)}`, { body });
  const pinned: ModelPackage = { ...base, files: [{ ...file, sha256: sha256(body), sizeBytes: body.length, pinSource: 'the tiny test model' }] };
  svc = await startTestService({ modelPackages: [pinned], modelMirror: server.url, holdSeconds: 120, workers: 1 });
  client = new Client(svc.url, svc.key);
});

afterAll(async () => {
  await svc?.stop();
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

interface Job {
  status: string;
  error_code: string | null;
  error_message?: string | null;
  result: { artifacts?: Array<{ url: string }> } | null;
}

async function denoise(product: string, model: string): Promise<Job> {
  const response = await client.postForm(`/v1/${product}`, [
    { name: 'model', value: model },
    { name: 'file', file: { name: 'noisy.wav', data: new Uint8Array(readFileSync(NOISY)) } },
  ]);
  return (await response.json()) as Job;
}

function energy(samples: Float32Array): number {
  let sum = 0;
  for (const x of samples) sum += x * x;
  return sum;
}

describe('DPDFNet', () => {
  it('the curated entry says its pin is unconfirmed; with a pin it downloads, is detected from its metadata and serves both enhancement products', async () => {
    expect(CURATED_PACKAGES.find((p) => p.id === 'dpdfnet-baseline')!.files[0]!.unconfirmed).toMatch(/no release checksum/);
    const before = (await (await client.get('/v1/models/dpdfnet-baseline')).json()) as CatalogueRecord;
    expect(before).toMatchObject({ status: 'unavailable', capability: 'noise_reduction', products: ['voice-isolator', 'audio-enhancement'] });

    expect([200, 202]).toContain((await client.post('/v1/local/models/dpdfnet-baseline/download')).status);
    await svc.service.models.whenDone('dpdfnet-baseline');
    const status = (await (await client.get('/v1/local/models/dpdfnet-baseline')).json()) as PackageStatus;
    expect(status).toMatchObject({ family: 'dpdfnet', state: 'installed', verified: true });
    expect(svc.service.models.installed('dpdfnet-baseline')!.files).toEqual({ model: 'dpdfnet_baseline.onnx' });
    expect((await (await client.get('/v1/models/dpdfnet-baseline')).json()) as CatalogueRecord).toMatchObject({ status: 'available', engine: 'dpdfnet' });

    const input = decodeWav(new Uint8Array(readFileSync(NOISY)));
    for (const product of ['voice-isolator', 'audio-enhancement']) {
      const job = await denoise(product, 'dpdfnet-baseline');
      expect({ status: job.status, error: job.error_code, message: job.error_message ?? null }).toEqual({ status: 'succeeded', error: null, message: null });
      const wav = decodeWav(new Uint8Array(await (await fetch(job.result!.artifacts![0]!.url)).arrayBuffer()));
      expect(wav.sampleRate).toBe(16000);
      expect(wav.channels[0]!.length).toBe(input.channels[0]!.length);
      const ratio = energy(wav.channels[0]!) / energy(input.channels[0]!);
      expect(ratio).toBeGreaterThan(0.2);
      expect(ratio).toBeLessThan(0.95);
    }
  }, scaled(120_000));

  it('a DPDFNet export sherpa-onnx cannot stream is imported but listed unavailable with the reason, never loaded', async () => {
    const { execFileSync } = await import('node:child_process');
    const folder = join(work, 'offline-only');
    mkdirSync(folder, { recursive: true });
    const target = join(folder, 'dpdfnet_offline.onnx');
    copyFileSync(join(generatedModel('dpdfnet'), 'dpdfnet_baseline.onnx'), target);
    // Rewrite only the profile in the metadata (python3-onnx, as the tiny-model script uses).
    execFileSync('/usr/bin/python3', ['-c', `import onnx,sys\nm=onnx.load(sys.argv[1])\nfor p in m.metadata_props:\n  p.value = 'dpdfnet_offline' if p.key=='profile' else p.value\nonnx.save(m, sys.argv[1])`, target]);
    expect((await client.postJson('/v1/local/models/import', { path: folder, id: 'offline-dpdfnet' })).status).toBe(202);
    await svc.service.models.whenImported('offline-dpdfnet');
    expect(svc.service.models.installed('offline-dpdfnet')).toMatchObject({ family: 'dpdfnet' });
    const row = (await (await client.get('/v1/models/offline-dpdfnet')).json()) as CatalogueRecord;
    expect(row.status).toBe('unavailable');
    expect(row.reason).toMatch(/profile "dpdfnet_offline"; sherpa-onnx streams only the DPDFNet exports dpdfnet_16khz/);
    const job = await client.postForm('/v1/voice-isolator', [
      { name: 'model', value: 'offline-dpdfnet' },
      { name: 'file', file: { name: 'noisy.wav', data: new Uint8Array(readFileSync(NOISY)) } },
    ]);
    expect(job.status).toBe(422);
  }, scaled(60_000));
});
