/**
 * The spec's model families on device, from download to finished job: each curated package that serves a spec family
 * (W-turbo, W-full, …) is downloaded by the service's model manager from a local HTTP server (through the mirror
 * setting, with the curated entry's id, URL and archive layout, pinned to the tiny archive's sha256 and size),
 * verified, extracted and detected; the catalogue names its spec family; and a real job through the HTTP API runs the
 * family's loader on a tiny random-weight model in the family's exact layout, made by
 * scripts/tiny-models/make_tiny_models.py (test/helpers/generated-models.ts). The text means nothing; the format,
 * the loader and the params the spec gives the family are what is tested.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueRecord } from '../../../src-main/common/api-types.js';
import { CURATED_PACKAGES, type ModelPackage } from '../../../src-main/models/packages/curated-models.js';
import { WHISPER_V3_LANGUAGES } from '../../../src-main/models/packages/curated/asr-packages.js';
import type { PackageStatus } from '../../../src-main/models/packages/package-status.js';
import { generatedModel } from '../../helpers/generated-models.js';
import { Client } from '../../helpers/http-client.js';
import { startRangeServer, type RangeServer } from '../../helpers/range-server.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { SHARED } from '../../helpers/system.js';
import { packArchive, TINY, type Archive } from '../../helpers/tiny-archives.js';
import { scaled } from '../../helpers/time-scale.js';

const JFK = join(SHARED, 'audio', 'jfk.wav');
const curated = (id: string) => CURATED_PACKAGES.find((p) => p.id === id)!;

let work: string;
let server: RangeServer;
let svc: TestService;
let client: Client;
const packages: ModelPackage[] = [];

/** The package with its one file served by the mirror from `archive`, pinned to the archive's sha256 and size. */
function serve(base: ModelPackage, archive: Archive): void {
  const file = base.files[0]!;
  server.files.set(`/${base.id}/${basename(new URL(file.url).pathname)}`, { body: archive.body });
  packages.push({ ...base, files: [{ ...file, sha256: archive.sha256, sizeBytes: archive.body.length }] });
}

/** The tiny turbo-shaped Whisper packed as sherpa-onnx packs a Whisper release (top folder, `<size>-…` names). */
function whisperArchive(name: string, top: string, prefix: string): Archive {
  const tiny = generatedModel('whisper-turbo');
  return packArchive(work, name, top, {
    [`${prefix}-encoder.int8.onnx`]: join(tiny, 'turbo-encoder.int8.onnx'),
    [`${prefix}-decoder.int8.onnx`]: join(tiny, 'turbo-decoder.int8.onnx'),
    [`${prefix}-tokens.txt`]: join(tiny, 'turbo-tokens.txt'),
    'test_wavs/0.wav': JFK,
  });
}

async function pull(id: string): Promise<PackageStatus> {
  const answer = await client.post(`/v1/local/models/${id}/download`);
  expect([200, 202]).toContain(answer.status);
  await svc.service.models.whenDone(id);
  return (await (await client.get(`/v1/local/models/${id}`)).json()) as PackageStatus;
}

interface JobBody {
  status: string;
  error_code: string | null;
  error_message?: string | null;
  result: { text: string; language?: string | null } | null;
}

async function transcribe(model: string, params: Record<string, unknown> = {}): Promise<{ status: number; body: JobBody & { error?: { code: string; message: string } } }> {
  const response = await client.postForm('/v1/speech-to-text', [
    { name: 'model', value: model },
    { name: 'params', value: JSON.stringify(params) },
    { name: 'file', file: { name: 'jfk.wav', data: new Uint8Array(readFileSync(JFK)) } },
  ]);
  return { status: response.status, body: (await response.json()) as JobBody & { error?: { code: string; message: string } } };
}

async function catalogue(): Promise<CatalogueRecord[]> {
  return ((await (await client.get('/v1/models?include_unavailable=true')).json()) as { data: CatalogueRecord[] }).data;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'voxdesk-spec-families-'));
  server = await startRangeServer();
  serve(curated('whisper-large-v3-turbo'), whisperArchive('sherpa-onnx-whisper-turbo.tar.bz2', 'sherpa-onnx-whisper-turbo', 'turbo'));
  serve(curated('whisper-large-v3'), whisperArchive('sherpa-onnx-whisper-large-v3.tar.bz2', 'sherpa-onnx-whisper-large-v3', 'large-v3'));
  serve(
    curated('parakeet-tdt-ctc-110m-en'),
    packArchive(work, 'sherpa-onnx-nemo-parakeet_tdt_ctc_110m-en-36000-int8.tar.bz2', 'sherpa-onnx-nemo-parakeet_tdt_ctc_110m-en-36000-int8', {
      'model.int8.onnx': join(TINY, 'tiny-nemo-ctc', 'model.onnx'),
      'tokens.txt': join(TINY, 'tiny-nemo-ctc', 'tokens.txt'),
      'test_wavs/0.wav': JFK,
    }),
  );
  const punctuation = generatedModel('punctuation');
  serve(
    curated('punct-ct-transformer-zh-en'),
    packArchive(work, 'sherpa-onnx-punct-ct-transformer-zh-en-vocab272727-2024-04-12-int8.tar.bz2', 'sherpa-onnx-punct-ct-transformer-zh-en-vocab272727-2024-04-12-int8', {
      'model.int8.onnx': join(punctuation, 'model.int8.onnx'),
      'README.md': Buffer.from('tiny random-weight test model\n'),
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
  // A package whose pin no published source confirms: offered, refused.
  const unconfirmed = curated('whisper-large-v3');
  const unconfirmedArchive = whisperArchive('sherpa-onnx-whisper-unconfirmed.tar.bz2', 'sherpa-onnx-whisper-large-v3', 'large-v3');
  server.files.set(`/whisper-unconfirmed/${basename(new URL(unconfirmed.files[0]!.url).pathname)}`, { body: unconfirmedArchive.body });
  packages.push({
    ...unconfirmed,
    id: 'whisper-unconfirmed',
    specFamily: undefined,
    files: [{ ...unconfirmed.files[0]!, sha256: null, pinSource: undefined, unconfirmed: 'no release checksum or public pin found for this asset' }],
  } as ModelPackage);
  svc = await startTestService({ modelPackages: packages, modelMirror: server.url, holdSeconds: 120, workers: 1 });
  client = new Client(svc.url, svc.key);
});

afterAll(async () => {
  await svc?.stop();
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('the spec families on device', () => {
  it('a client finds a W-turbo and a W-full model in the catalogue by their spec family, before and after download', async () => {
    const before = await catalogue();
    expect(before.filter((m) => m.spec_family === 'W-turbo').map((m) => m.id)).toEqual(['whisper-large-v3-turbo']);
    expect(before.filter((m) => m.spec_family === 'W-full').map((m) => m.id)).toEqual(['whisper-large-v3']);
    expect(before.find((m) => m.id === 'whisper-large-v3-turbo')).toMatchObject({ status: 'unavailable', download: { licence: 'MIT' } });

    for (const id of ['whisper-large-v3-turbo', 'whisper-large-v3']) {
      const status = await pull(id);
      expect(status).toMatchObject({ id, family: 'whisper', state: 'installed', verified: true, spec_family: id.endsWith('turbo') ? 'W-turbo' : 'W-full', speed_class: 'slow' });
      const prefix = id.endsWith('turbo') ? 'turbo' : 'large-v3';
      expect(svc.service.models.installed(id)!.files).toEqual({ encoder: `${prefix}-encoder.int8.onnx`, decoder: `${prefix}-decoder.int8.onnx`, tokens: `${prefix}-tokens.txt` });
    }
    const after = await catalogue();
    const turbo = after.find((m) => m.id === 'whisper-large-v3-turbo')!;
    expect(turbo).toMatchObject({ status: 'available', spec_family: 'W-turbo', capability: 'asr' });
    // The languages come from the model's own metadata: large-v3's hundred, Cantonese included.
    expect(turbo.languages).toEqual([...WHISPER_V3_LANGUAGES]);
  });

  it('W-turbo transcribes with its 128 mel bins and large-v3 vocabulary, and refuses task translate as the spec does', async () => {
    const done = await transcribe('whisper-large-v3-turbo');
    expect({ status: done.status, job: done.body.status, error: done.body.error_code }).toEqual({ status: 200, job: 'succeeded', error: null });
    expect(done.body.result!.text.trim()).not.toBe('');
    expect(WHISPER_V3_LANGUAGES as readonly string[]).toContain(done.body.result!.language);

    const refused = await transcribe('whisper-large-v3-turbo', { task: 'translate' });
    expect(refused.status).toBe(400);
    expect(refused.body.error!.code).toBe('invalid_params');
    expect(refused.body.error!.message).toMatch(/W-turbo.*not trained to translate/);
    const schema = (await (await client.get('/v1/models/whisper-large-v3-turbo')).json()) as CatalogueRecord;
    expect((schema.params_schema.properties as Record<string, { enum?: string[] }>).task!.enum).toEqual(['transcribe']);
  });

  it('W-full translates: task translate runs through the loader to a finished job', async () => {
    const schema = (await (await client.get('/v1/models/whisper-large-v3')).json()) as CatalogueRecord;
    expect((schema.params_schema.properties as Record<string, { enum?: string[] }>).task!.enum).toEqual(['transcribe', 'translate']);
    for (const params of [{ task: 'translate' }, { task: 'translate', language: 'de' }, { task: 'transcribe', language: 'yue' }]) {
      const done = await transcribe('whisper-large-v3', params);
      expect({ params, job: done.body.status, error: done.body.error_code }).toEqual({ params, job: 'succeeded', error: null });
    }
  });

  it('refuses to download a curated package whose pin is not confirmed, saying why and what to do instead', async () => {
    const status = (await (await client.get('/v1/local/models/whisper-unconfirmed')).json()) as PackageStatus;
    expect(status.unconfirmed).toMatch(/no release checksum/);
    const answer = await client.post('/v1/local/models/whisper-unconfirmed/download');
    expect(answer.status).toBe(409);
    const body = (await answer.json()) as { error: { code: string; message: string } };
    expect(body.error.message).toMatch(/no published source confirms its checksum.*accept_unconfirmed: true.*add a copy you trust by URL with its sha256/);
    expect(server.requests.some((r) => r.path.startsWith('/whisper-unconfirmed/'))).toBe(false);
  });

  it('installs such a package unverified when the person accepts it, and refuses a malformed acceptance', async () => {
    for (const [body, message] of [
      [{ accept_unconfirmed: 'yes' }, /accept_unconfirmed must be true or false/],
      [{ accept: true }, /accept/],
    ] as const) {
      const refused = await client.postJson('/v1/local/models/whisper-unconfirmed/download', body);
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(message);
    }
    expect(server.requests.some((r) => r.path.startsWith('/whisper-unconfirmed/'))).toBe(false);
    const answer = await client.postJson('/v1/local/models/whisper-unconfirmed/download', { accept_unconfirmed: true });
    expect(answer.status).toBe(202);
    await svc.service.models.whenDone('whisper-unconfirmed');
    const status = (await (await client.get('/v1/local/models/whisper-unconfirmed')).json()) as PackageStatus;
    expect(status).toMatchObject({ state: 'installed', verified: false });
    expect(status.unconfirmed).toMatch(/no release checksum/);
    const done = await transcribe('whisper-unconfirmed');
    expect({ job: done.body.status, error: done.body.error_code }).toEqual({ job: 'succeeded', error: null });
  });

  it('C-flash: Canary is downloaded, detected as Canary (not Whisper), told its language, and auto is English', async () => {
    const status = await pull('canary-180m-flash');
    expect(status).toMatchObject({ family: 'canary', state: 'installed', verified: true, spec_family: 'C-flash' });
    expect(svc.service.models.installed('canary-180m-flash')!.files).toEqual({ encoder: 'encoder.int8.onnx', decoder: 'decoder.int8.onnx', tokens: 'tokens.txt' });
    const row = (await catalogue()).find((m) => m.spec_family === 'C-flash')!;
    expect(row).toMatchObject({ id: 'canary-180m-flash', status: 'available', languages: ['en', 'de', 'es', 'fr'] });
    expect((row.params_schema.properties as Record<string, { enum?: string[] }>).language!.enum).toEqual(['auto', 'en', 'de', 'es', 'fr']);

    const auto = await transcribe('canary-180m-flash');
    expect({ job: auto.body.status, error: auto.body.error_code, language: auto.body.result?.language }).toEqual({ job: 'succeeded', error: null, language: 'en' });
    expect(auto.body.result!.text.trim()).not.toBe('');
    const german = await transcribe('canary-180m-flash', { language: 'de' });
    expect({ job: german.body.status, language: german.body.result?.language }).toEqual({ job: 'succeeded', language: 'de' });
    expect(german.body.result!.text).not.toBe(auto.body.result!.text); // the prompt's language reaches the decoder
    const italian = await transcribe('canary-180m-flash', { language: 'it' });
    expect(italian.status).toBe(400);
    expect(italian.body.error!.code).toBe('invalid_params');
  });

  it('a Canary folder imported from disk is recognised as Canary; one whose vocabulary does not match its encoder is refused with the reason', async () => {
    const canary = generatedModel('canary');
    const imported = await client.postJson('/v1/local/models/import', { path: canary, id: 'my-canary' });
    expect(imported.status).toBe(202);
    await svc.service.models.whenImported('my-canary');
    expect(svc.service.models.installed('my-canary')).toMatchObject({ family: 'canary' });
    expect((await catalogue()).find((m) => m.id === 'my-canary')).toMatchObject({ status: 'available', languages: ['en', 'es', 'de', 'fr'] });

    const { cpSync, writeFileSync } = await import('node:fs');
    const short = join(work, 'short-canary');
    cpSync(canary, short, { recursive: true });
    writeFileSync(join(short, 'tokens.txt'), readFileSync(join(canary, 'tokens.txt'), 'utf8').split('\n').slice(0, 100).join('\n') + '\n');
    expect((await client.postJson('/v1/local/models/import', { path: short, id: 'short-canary' })).status).toBe(202);
    await svc.service.models.whenImported('short-canary');
    const row = (await catalogue()).find((m) => m.id === 'short-canary')!;
    expect(row.status).toBe('unavailable');
    expect(row.reason).toMatch(/tokens\.txt has 100 lines but the encoder's vocab_size is 5248/);
  });

  it('the spec families without an open model on device have a row saying so and why, and a job naming one is refused with it', async () => {
    const rows = await catalogue();
    for (const family of ['C-v2', 'Q-asr', 'P-rnnt']) {
      const row = rows.find((m) => m.spec_family === family)!;
      expect(row, family).toMatchObject({ status: 'unavailable', capability: 'asr', engine: 'none' });
      expect(row.reason).toMatch(new RegExp(`no ${family} model on device: .*sherpa-onnx-node 1\\.13\\.8`));
      const job = await transcribe(row.id);
      expect(job.status).toBe(422);
      expect(job.body.error!.code).toBe('model_unavailable');
    }
  });

  it('P-ctc: the Parakeet CTC package downloads as upstream packs it and transcribes with word timings from token times', async () => {
    const status = await pull('parakeet-tdt-ctc-110m-en');
    expect(status).toMatchObject({ family: 'nemo-ctc', state: 'installed', verified: true, spec_family: 'P-ctc', speed_class: 'fast' });
    expect((await catalogue()).filter((m) => m.spec_family === 'P-ctc').map((m) => m.id)).toEqual(['parakeet-tdt-ctc-110m-en']);
    const done = await transcribe('parakeet-tdt-ctc-110m-en', { timestamp_granularity: 'word' });
    expect({ job: done.body.status, language: done.body.result?.language }).toEqual({ job: 'succeeded', language: 'en' });
    const words = (done.body.result as unknown as { words: Array<{ interpolated?: boolean }> }).words;
    expect(words.length).toBeGreaterThan(0);
    expect(words.some((w) => w.interpolated)).toBe(false);
  });

  it('punctuation: PocketSphinx and CTC transcripts come back punctuated and cased through the punctuation model, on by default once it is installed', async () => {
    const before = (await (await client.get('/v1/models/pocketsphinx-en-us')).json()) as CatalogueRecord;
    expect((before.params_schema.properties as Record<string, { enum?: boolean[] }>).punctuate!.enum).toEqual([false]);
    const plain = await transcribe('pocketsphinx-en-us');
    expect(plain.body.status).toBe('succeeded');
    expect(plain.body.result!.text).toMatch(/^[a-z' ]+$/); // PocketSphinx alone: lower-case words, no marks

    const status = await pull('punct-ct-transformer-zh-en');
    expect(status).toMatchObject({ family: 'punctuation', capability: 'support', state: 'installed', verified: true });
    const after = (await (await client.get('/v1/models/pocketsphinx-en-us')).json()) as CatalogueRecord;
    expect((after.params_schema.properties as Record<string, { default?: boolean }>).punctuate!.default).toBe(true);

    const sphinx = await transcribe('pocketsphinx-en-us');
    expect(sphinx.body.status).toBe('succeeded');
    const text = sphinx.body.result!.text;
    expect(text).toMatch(/\.$/); // the acceptance: a PocketSphinx transcript of jfk.wav ends with a full stop
    expect(text).toMatch(/^[A-Z]/);
    expect(text.toLowerCase().replace(/[.,?]/g, '')).toBe(plain.body.result!.text); // the same words, with marks and casing
    const words = (sphinx.body.result as unknown as { words: Array<{ word: string }> }).words;
    expect(words.map((w) => w.word).join(' ')).toBe(text); // words agree with the text
    const unpunctuated = await transcribe('pocketsphinx-en-us', { punctuate: false });
    expect(unpunctuated.body.result!.text).toBe(plain.body.result!.text);

    if (!svc.service.models.installed('parakeet-tdt-ctc-110m-en')) await pull('parakeet-tdt-ctc-110m-en');
    const ctc = await transcribe('parakeet-tdt-ctc-110m-en');
    expect(ctc.body.result!.text).toMatch(/^[A-Z].*\.$/);
    // A recognizer that punctuates itself has no punctuate param.
    const refused = await transcribe('whisper-large-v3', { punctuate: true });
    expect(refused.status).toBe(400);
  }, scaled(300_000)); // three PocketSphinx runs of jfk.wav on a shared machine
});
