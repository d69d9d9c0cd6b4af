/**
 * The model manager end to end: real SQLite, a real local HTTP server serving ../shared/models files (the curated
 * pins through VOXDESK_MODEL_MIRROR-style mirroring), archives made with the system tar, resume across a restart.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-main/common/errors.js';
import type { ModelPackage } from '../../../src-main/models/packages/curated-models.js';
import { ModelManager } from '../../../src-main/models/model-manager.js';
import { modelManagerSource } from '../../../src-main/models/catalogue-source.js';
import { openDatabase, type Db } from '../../../src-main/store/database.js';
import { createSqliteStore } from '../../../src-main/store/sqlite-store.js';
import { requireCommand, SHARED } from '../../helpers/system.js';
import { startRangeServer, type RangeServer } from '../../helpers/range-server.js';

const MODELS = join(SHARED, 'models');
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let dir: string;
let db: Db;
let server: RangeServer;
const managers: ModelManager[] = [];

async function manager(options: Partial<Parameters<typeof ModelManager.open>[0]> = {}): Promise<ModelManager> {
  const m = await ModelManager.open({ dataDir: dir, store: createSqliteStore(db, join(dir, 'voxdesk.db')), mirror: server.url, backoffMs: 10, retries: 2, ...options });
  managers.push(m);
  return m;
}

/** A .tar.bz2 of ../shared/models/tiny/tiny-nemo-ctc inside a top folder, as sherpa-onnx publishes them. */
function nemoCtcArchive(): Buffer {
  requireCommand('tar');
  requireCommand('bzip2');
  const src = join(dir, 'archive-src', 'sherpa-onnx-tiny-nemo-ctc');
  mkdirSync(src, { recursive: true });
  cpSync(join(MODELS, 'tiny', 'tiny-nemo-ctc'), src, { recursive: true });
  execFileSync('tar', ['cjf', join(dir, 'tiny.tar.bz2'), '-C', join(dir, 'archive-src'), 'sherpa-onnx-tiny-nemo-ctc']);
  return readFileSync(join(dir, 'tiny.tar.bz2'));
}

function tinyPackage(archive: Buffer, overrides: Partial<ModelPackage> = {}): ModelPackage {
  return {
    id: 'tiny-ctc',
    name: 'Tiny CTC',
    description: 'random weights',
    capability: 'asr',
    family: 'nemo-ctc',
    languages: ['en'],
    licence: 'MIT',
    version: '1',
    files: [{ url: 'https://example.invalid/releases/tiny.tar.bz2', sha256: sha(archive), sizeBytes: archive.length, path: '', extract: 'tar.bz2' }],
    ...overrides,
  };
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-mm-'));
  db = openDatabase(join(dir, 'voxdesk.db'));
  server = await startRangeServer();
});

afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.stop()));
  await server.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('ModelManager downloads', () => {
  it('installs the curated GTCRN and Silero packages (the real pins) served from ../shared, and the source lists them', async () => {
    server.files.set('/gtcrn-simple/gtcrn_simple.onnx', { body: readFileSync(join(MODELS, 'gtcrn_simple.onnx')) });
    server.files.set('/silero-vad-v5/silero_vad.onnx', { body: readFileSync(join(MODELS, 'silero_vad_v5.onnx')) });
    const m = await manager();
    const source = modelManagerSource({ dataDir: dir, manager: m });
    const before = source.list().find((d) => d.id === 'gtcrn-simple')!;
    expect(before).toMatchObject({ status: 'unavailable', reason: 'not downloaded — voxdesk models pull gtcrn-simple', capability: 'noise_reduction' });
    expect(before.download).toEqual({ sizeBytes: 535_638, installed: false, licence: 'MIT' });
    expect(m.supportModelPath('silero-vad')).toBeNull();

    const started = m.pull('gtcrn-simple');
    expect(started.state).toBe('downloading');
    m.pull('silero-vad-v5');
    const model = await m.whenDone('gtcrn-simple');
    await m.whenDone('silero-vad-v5');
    expect(model).toMatchObject({ id: 'gtcrn-simple', family: 'gtcrn', verified: true, files: { model: 'gtcrn_simple.onnx' } });
    expect(model!.dir).toBe(join(dir, 'models', 'gtcrn-simple'));
    expect(sha(readFileSync(join(model!.dir, 'gtcrn_simple.onnx')))).toBe('e77603ac0c23dac3227dd2d7135b3a585cbee2679048aecfa886657d3ae1b534');
    expect(existsSync(join(dir, 'models', '.staging', 'gtcrn-simple'))).toBe(false);

    const after = source.list().find((d) => d.id === 'gtcrn-simple')!;
    expect(after).toMatchObject({ status: 'available', reason: null, downloading: false, provider: 'local' });
    expect(after.download).toMatchObject({ installed: true });
    expect(after).toMatchObject({ engine: 'gtcrn', products: ['voice-isolator', 'audio-enhancement'] });
    expect(after.engineConfig).toMatchObject({ model: join(model!.dir, 'gtcrn_simple.onnx') }); // the denoiser's gtcrnDefinition
    expect(source.list().some((d) => d.id === 'silero-vad-v5')).toBe(false); // support packages are not catalogue models
    expect(m.supportModelPath('silero-vad')).toBe(join(dir, 'models', 'silero-vad-v5', 'silero_vad.onnx'));
    expect(m.status('gtcrn-simple')).toMatchObject({ state: 'installed', installed: true, verified: true, progress: null });
    expect(m.pull('gtcrn-simple').state).toBe('installed'); // pulling an installed package is a no-op
  });

  it('installs a .tar.bz2 package, detects its layout and hands the support paths to the family\'s engine', async () => {
    const archive = nemoCtcArchive();
    server.files.set('/tiny-ctc/tiny.tar.bz2', { body: archive });
    server.files.set('/pyannote-segmentation-3-0/model.int8.onnx', { body: readFileSync(join(MODELS, 'pyannote-segmentation-3-0.int8.onnx')) });
    const curated = (await import('../../../src-main/models/packages/curated-models.js')).CURATED_PACKAGES;
    const pyannote = curated.find((p) => p.id === 'pyannote-segmentation-3-0')!;
    const m = await manager({ packages: [tinyPackage(archive), pyannote] });
    m.pull('pyannote-segmentation-3-0');
    await m.whenDone('pyannote-segmentation-3-0');
    m.pull('tiny-ctc');
    const model = await m.whenDone('tiny-ctc');
    expect(model).toMatchObject({ family: 'nemo-ctc', files: { model: 'model.onnx', tokens: 'tokens.txt' }, verified: true });
    expect(readdirSync(model!.dir).sort()).toEqual(['model.onnx', 'tokens.txt']);

    // The engine of the family (family-engines.ts) gets the package's files and the support models installed.
    const def = modelManagerSource({ dataDir: dir, manager: m }).list().find((d) => d.id === 'tiny-ctc')!;
    expect(def).toMatchObject({ status: 'available', capability: 'asr', products: ['speech-to-text'], engine: 'sherpa-asr' });
    expect(def.engineConfig).toMatchObject({ family: 'nemo-ctc', files: { model: join(model!.dir, 'model.onnx'), tokens: join(model!.dir, 'tokens.txt') } });
    expect(m.supportModelPath('pyannote-segmentation')).toBe(join(dir, 'models', 'pyannote-segmentation-3-0', 'model.int8.onnx'));
  });

  it('deletes the file and reports checksum_mismatch when the bytes do not match the pin', async () => {
    const archive = nemoCtcArchive();
    server.files.set('/tiny-ctc/tiny.tar.bz2', { body: archive });
    const bad = tinyPackage(archive);
    bad.files[0] = { ...bad.files[0]!, sha256: '0'.repeat(64) };
    const m = await manager({ packages: [bad] });
    m.pull('tiny-ctc');
    expect(await m.whenDone('tiny-ctc')).toBeNull();
    const status = m.status('tiny-ctc');
    expect(status).toMatchObject({ state: 'failed', installed: false, error_code: 'checksum_mismatch' });
    expect(status.error_message).toMatch(/has sha256 [0-9a-f]{64}, expected 0{64}; the file was deleted/);
    expect(existsSync(join(dir, 'models', '.staging', 'tiny-ctc', 'file-0.part'))).toBe(false);
    expect(m.installed('tiny-ctc')).toBeNull();
  });

  it('reports download_failed on 404 and succeeds when pulled again once the file is there', async () => {
    const archive = nemoCtcArchive();
    const m = await manager({ packages: [tinyPackage(archive)] });
    m.pull('tiny-ctc');
    await m.whenDone('tiny-ctc');
    expect(m.status('tiny-ctc')).toMatchObject({ state: 'failed', error_code: 'download_failed' });
    expect(m.status('tiny-ctc').error_message).toContain('HTTP 404');
    server.files.set('/tiny-ctc/tiny.tar.bz2', { body: archive });
    m.pull('tiny-ctc');
    expect(await m.whenDone('tiny-ctc')).toMatchObject({ id: 'tiny-ctc' });
    expect(m.status('tiny-ctc')).toMatchObject({ state: 'installed', error_code: null });
  });

  it('resumes an interrupted download after a restart (stop, new manager, start) with a Range request', async () => {
    const body = readFileSync(join(MODELS, 'silero_vad_v5.onnx'));
    server.files.set('/silero-vad-v5/silero_vad.onnx', { body, slowChunkMs: 40 });
    const first = await manager();
    const source = modelManagerSource({ dataDir: dir, manager: first });
    first.pull('silero-vad-v5');
    await new Promise<void>((resolve) => first.on('progress', (p) => (p.downloaded_bytes ?? 0) > 200_000 && resolve()));
    expect(first.isDownloading('silero-vad-v5')).toBe(true);
    await first.stop();
    const part = join(dir, 'models', '.staging', 'silero-vad-v5', 'file-0.part');
    expect(existsSync(part)).toBe(true);
    expect(db.prepare("SELECT status FROM downloads WHERE model_id = 'silero-vad-v5'").get()).toEqual({ status: 'downloading' });
    void source;

    server.files.set('/silero-vad-v5/silero_vad.onnx', { body });
    const second = await manager();
    await second.start();
    const model = await second.whenDone('silero-vad-v5');
    expect(model).toMatchObject({ verified: true });
    const resumed = server.requests.filter((r) => r.range);
    expect(resumed.length).toBeGreaterThanOrEqual(1);
    expect(resumed.at(-1)!.status).toBe(206);
    expect(sha(readFileSync(join(model!.dir, 'silero_vad.onnx')))).toBe(sha(body));
    expect(db.prepare('SELECT COUNT(*) AS n FROM downloads').get()).toEqual({ n: 0 });
  });

  it('marks a package downloading in the source while it runs, and cancel deletes the partial files', async () => {
    server.files.set('/gtcrn-simple/gtcrn_simple.onnx', { body: readFileSync(join(MODELS, 'gtcrn_simple.onnx')), slowChunkMs: 200 });
    const m = await manager();
    const source = modelManagerSource({ dataDir: dir, manager: m });
    m.pull('gtcrn-simple');
    const def = source.list().find((d) => d.id === 'gtcrn-simple')!;
    expect(def).toMatchObject({ status: 'unavailable', downloading: true, reason: 'downloading — voxdesk models pull gtcrn-simple' });
    const cancelled = await m.cancel('gtcrn-simple');
    expect(cancelled).toMatchObject({ state: 'not_installed', progress: null });
    expect(await m.whenDone('gtcrn-simple')).toBeNull();
    expect(existsSync(join(dir, 'models', '.staging', 'gtcrn-simple'))).toBe(false);
    expect(m.status('gtcrn-simple')).toMatchObject({ state: 'not_installed', error_code: null });
    expect(source.list().find((d) => d.id === 'gtcrn-simple')!.downloading).toBe(false);
    await expect(m.cancel('gtcrn-simple')).rejects.toThrow(/is not downloading/);
  });

  it('records the computed hash and shows the package unverified when the list has no sha256', async () => {
    const archive = nemoCtcArchive();
    server.files.set('/tiny-ctc/tiny.tar.bz2', { body: archive });
    const pkg = tinyPackage(archive);
    pkg.files[0] = { ...pkg.files[0]!, sha256: null };
    const m = await manager({ packages: [pkg] });
    m.pull('tiny-ctc');
    const model = await m.whenDone('tiny-ctc');
    expect(model).toMatchObject({ verified: false, sha256: { 'tiny.tar.bz2': sha(archive) } });
    expect(m.status('tiny-ctc')).toMatchObject({ state: 'installed', verified: false });
  });

  it('takes the mirror from the models.mirror setting, and start() clears orphan staging folders', async () => {
    server.files.set('/gtcrn-simple/gtcrn_simple.onnx', { body: readFileSync(join(MODELS, 'gtcrn_simple.onnx')) });
    db.prepare("INSERT INTO settings (key, value_json, updated_at) VALUES ('models.mirror', ?, 'now')").run(JSON.stringify(`${server.url}/`));
    mkdirSync(join(dir, 'models', '.staging', 'left-over'), { recursive: true });
    const m = await ModelManager.open({ dataDir: dir, store: createSqliteStore(db, join(dir, 'voxdesk.db')), backoffMs: 10 });
    managers.push(m);
    await m.start();
    expect(existsSync(join(dir, 'models', '.staging', 'left-over'))).toBe(false);
    m.pull('gtcrn-simple');
    expect(await m.whenDone('gtcrn-simple')).toMatchObject({ verified: true });
    expect(server.requests.map((r) => r.path)).toEqual(['/gtcrn-simple/gtcrn_simple.onnx']);
  });

  it('answers unknown ids and impossible actions with clear errors', async () => {
    const m = await manager();
    expect(() => m.pull('nope')).toThrow(ApiError);
    expect(() => m.pull('nope')).toThrow(/no downloadable model nope/);
    expect(() => m.status('nope')).toThrow(/no model package nope/);
    await expect(m.remove('gtcrn-simple')).rejects.toThrow(/gtcrn-simple is not installed/);
    await expect(m.remove('nope')).rejects.toThrow(/no model package nope/);
    await expect(m.cancel('nope')).rejects.toThrow(/no model package nope/);
  });
});

describe('modelManagerSource with the engine areas\' family functions', () => {
  it('gives uninstalled packages their family params schema and installed ASR models the support paths', async () => {
    const m = await manager();
    const source = modelManagerSource({ dataDir: dir, manager: m });
    const parakeet = source.list().find((d) => d.id === 'parakeet-tdt-0.6b-v2')!;
    expect(parakeet).toMatchObject({ status: 'unavailable', engine: 'sherpa-asr', capability: 'asr', downloading: false });
    expect(parakeet.download).toEqual({ sizeBytes: 482_468_385, installed: false, licence: 'CC-BY-4.0' });
    expect(Object.keys(parakeet.paramsSchema.properties as object).length).toBeGreaterThan(0);
    const kokoro = source.list().find((d) => d.id === 'kokoro-en-v0_19')!;
    expect(kokoro).toMatchObject({ engine: 'sherpa-tts', capability: 'tts', products: ['text-to-speech'], live: true });
    expect((kokoro.paramsSchema.properties as Record<string, { maximum?: number }>).speaker!.maximum).toBe(10);

    await m.importPath(join(MODELS, 'silero_vad_v5.onnx'), { id: 'vad' });
    await m.importPath(join(MODELS, 'tiny', 'tiny-whisper'), { id: 'tw', languages: ['en', 'de'] });
    await m.importPath(join(MODELS, 'tiny', 'tiny-vits'), { id: 'tv' });
    const whisper = source.list().find((d) => d.id === 'tw')!;
    expect(whisper).toMatchObject({ status: 'available', engine: 'sherpa-asr', languages: ['en', 'de'] });
    expect(whisper.engineConfig).toMatchObject({
      family: 'whisper',
      files: { encoder: join(dir, 'models', 'tw', 'encoder.onnx'), decoder: join(dir, 'models', 'tw', 'decoder.onnx'), tokens: join(dir, 'models', 'tw', 'tokens.txt') },
      vadModel: join(dir, 'models', 'vad', 'silero_vad_v5.onnx'),
      diarization: null,
    });
    expect(source.list().find((d) => d.id === 'tv')).toMatchObject({ status: 'available', engine: 'sherpa-tts', capability: 'tts' });
  });

  it('lists an installed package whose files its engine rejects as unavailable, with the reason', async () => {
    const m = await manager();
    await m.importPath(join(MODELS, 'tiny', 'tiny-nemo-ctc'), { id: 'ctc' });
    rmSync(join(dir, 'models', 'ctc', 'tokens.txt'));
    // A row an older version (or another process) wrote, without the tokens file: seen once the manager looks.
    const other = openDatabase(join(dir, 'voxdesk.db'));
    other.prepare(`UPDATE installed_models SET files_json = '{"model":"model.onnx"}' WHERE id = 'ctc'`).run();
    other.close();
    expect(await m.refresh()).toBe(true);
    const def = modelManagerSource({ dataDir: dir, manager: m }).list().find((d) => d.id === 'ctc')!;
    expect(def.status).toBe('unavailable');
    expect(def.reason).toMatch(/the installed package is incomplete \(.*tokens.*\); remove it and pull or import it again/);
  });
});

describe('ModelManager import and remove', () => {
  it('imports ../shared/models/tiny/tiny-nemo-ctc as nemo-ctc, lists it as available, and removes it', async () => {
    const m = await manager();
    const source = modelManagerSource({ dataDir: dir, manager: m });
    const model = await m.importPath(join(MODELS, 'tiny', 'tiny-nemo-ctc'), { languages: ['en'] });
    expect(model).toMatchObject({ id: 'tiny-nemo-ctc', family: 'nemo-ctc', capability: 'asr', source: 'imported', verified: false });
    expect(model.dir).toBe(join(dir, 'models', 'tiny-nemo-ctc'));
    expect(readFileSync(join(model.dir, 'tokens.txt'))).toEqual(readFileSync(join(MODELS, 'tiny', 'tiny-nemo-ctc', 'tokens.txt')));
    const def = source.list().find((d) => d.id === 'tiny-nemo-ctc')!;
    expect(def).toMatchObject({ status: 'available', capability: 'asr', languages: ['en'], download: null });
    expect(m.list().find((p) => p.id === 'tiny-nemo-ctc')).toMatchObject({ state: 'installed', source: 'imported' });

    await m.remove('tiny-nemo-ctc');
    expect(existsSync(model.dir)).toBe(false);
    expect(source.list().some((d) => d.id === 'tiny-nemo-ctc')).toBe(false);
    expect(existsSync(join(MODELS, 'tiny', 'tiny-nemo-ctc', 'model.onnx'))).toBe(true); // the original is untouched
  });

  it('imports a single .onnx file and a folder with an explicit id and family', async () => {
    const m = await manager();
    const vad = await m.importPath(join(MODELS, 'silero_vad_v4.onnx'));
    expect(vad).toMatchObject({ id: 'silero_vad_v4', family: 'silero-vad', capability: 'support' });
    expect(m.supportModelPath('silero-vad')).toBe(join(dir, 'models', 'silero_vad_v4', 'silero_vad_v4.onnx'));
    const whisper = await m.importPath(join(MODELS, 'tiny', 'tiny-whisper'), { id: 'my-whisper', family: 'whisper' });
    expect(whisper).toMatchObject({ id: 'my-whisper', family: 'whisper' });
  });

  it('refuses bad imports with clear errors and leaves nothing behind', async () => {
    const m = await manager();
    const refuse = async (path: string, options: Parameters<ModelManager['importPath']>[1], code: string, message: RegExp) => {
      const err = await m.importPath(path, options).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).code).toBe(code);
      expect((err as ApiError).message).toMatch(message);
    };
    await refuse(join(dir, 'missing'), {}, 'invalid_request', /does not exist/);
    await refuse('', {}, 'invalid_request', /path is required/);
    await refuse(join(MODELS, 'tiny', 'README.md'), {}, 'invalid_request', /not an \.onnx model/);
    await refuse(join(MODELS, 'tiny', 'tiny-nemo-ctc'), { family: 'banana' }, 'invalid_request', /unknown family banana/);
    await refuse(join(MODELS, 'tiny', 'tiny-nemo-ctc'), { family: 'whisper' }, 'invalid_request', /does not hold a whisper model/);
    await refuse(join(MODELS, 'tiny', 'tiny-nemo-ctc'), { id: 'Bad Id!' }, 'invalid_request', /must be 1-64 characters/);
    await refuse(join(MODELS, 'tiny', 'tiny-nemo-ctc'), { id: 'gtcrn-simple' }, 'conflict', /is the id of a downloadable model; pass another --id/);
    mkdirSync(join(dir, 'not-a-model'));
    writeFileSync(join(dir, 'not-a-model', 'notes.txt'), 'hello');
    await refuse(join(dir, 'not-a-model'), {}, 'invalid_request', /not-a-model: cannot tell which model family the folder holds \(it has no \.onnx model file\)/);
    await m.importPath(join(MODELS, 'tiny', 'tiny-nemo-ctc'));
    await refuse(join(MODELS, 'tiny', 'tiny-nemo-ctc'), {}, 'conflict', /already installed/);
    expect(readdirSync(join(dir, 'models')).sort()).toEqual(['.staging', 'tiny-nemo-ctc']);
    expect(readdirSync(join(dir, 'models', '.staging'))).toEqual([]);
  });
});
