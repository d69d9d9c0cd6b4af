/**
 * The models shipped in resources/models (models/packages/built-in-models.ts): each file is its curated package's
 * published file byte for byte (its licence beside it), and the model manager reads them as installed — unless a copy
 * the person downloaded is installed, which is then used and removable as before.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUILT_IN_FILES, builtInModels, builtInModelsDir } from '../../../../src-main/models/packages/built-in-models.js';
import { CURATED_PACKAGES } from '../../../../src-main/models/packages/curated-models.js';
import { ModelManager } from '../../../../src-main/models/model-manager.js';
import { openDatabase, type Db } from '../../../../src-main/store/database.js';
import { createRepositories } from '../../../../src-main/store/repositories.js';
import { createSqliteStore } from '../../../../src-main/store/sqlite-store.js';
import { appRoot } from '../../../../src-main/platform/native-addons.js';

let dir: string;
let db: Db;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-built-in-'));
  db = openDatabase(join(dir, 'voxdesk.db'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('resources/models', () => {
  it('holds each built-in file as its curated package published it, with its licence and source', () => {
    expect(builtInModelsDir()).toBe(join(appRoot(), 'resources', 'models'));
    const readme = readFileSync(join(builtInModelsDir(), 'README.md'), 'utf8');
    for (const { id, file } of BUILT_IN_FILES) {
      const published = CURATED_PACKAGES.find((p) => p.id === id)!.files[0]!;
      const bytes = readFileSync(join(builtInModelsDir(), file));
      expect(bytes.length).toBe(published.sizeBytes);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(published.sha256);
      expect(readme).toContain(file);
      expect(readme).toContain(published.sha256!);
    }
    expect(readFileSync(join(builtInModelsDir(), 'silero-vad.LICENSE'), 'utf8')).toMatch(/^MIT License\n\nCopyright \(c\) 2020-present Silero Team/);
  });

  it('describes Silero VAD v5 as its curated package does, installed in resources/models and verified', () => {
    const [vad] = builtInModels();
    expect(vad).toMatchObject({ id: 'silero-vad-v5', family: 'silero-vad', capability: 'support', licence: 'MIT', version: 'v5.1.2', verified: true });
    expect(vad!.files).toEqual({ model: 'silero_vad_v5.onnx' });
    expect(vad!.dir).toBe(builtInModelsDir());
  });

  it('leaves out a file a build does not carry', () => {
    expect(builtInModels(join(dir, 'nowhere'))).toEqual([]);
  });
});

describe('the model manager with built-in models', () => {
  it('answers the shipped VAD until a downloaded copy is installed, which it then uses and can remove', async () => {
    const manager = await ModelManager.open({ dataDir: dir, store: createSqliteStore(db, join(dir, 'voxdesk.db')), builtIn: builtInModels() });
    expect(manager.supportModelPath('silero-vad')).toBe(join(builtInModelsDir(), 'silero_vad_v5.onnx'));
    expect(manager.status('silero-vad-v5')).toMatchObject({ state: 'installed', built_in: true, source: 'curated' });
    expect(manager.pull('silero-vad-v5')).toMatchObject({ state: 'installed', built_in: true });
    await expect(manager.remove('silero-vad-v5')).rejects.toThrow(/built into Voxdesk/);
    expect(existsSync(join(builtInModelsDir(), 'silero_vad_v5.onnx'))).toBe(true);

    // A copy downloaded meanwhile (by `voxdesk models pull`, another connection: a row and files in the data dir).
    const copy = join(dir, 'models', 'silero-vad-v5');
    mkdirSync(copy, { recursive: true });
    writeFileSync(join(copy, 'silero_vad.onnx'), readFileSync(join(builtInModelsDir(), 'silero_vad_v5.onnx')));
    const other = openDatabase(join(dir, 'voxdesk.db'));
    createRepositories(other).models.putInstalled({ ...builtInModels()[0]!, dir: copy, files: { model: 'silero_vad.onnx' }, installedAt: new Date().toISOString() });
    other.close();
    // Another connection's change shows once the manager has looked (each revision() looks in the background).
    expect(await manager.refresh()).toBe(true);
    expect(manager.supportModelPath('silero-vad')).toBe(join(copy, 'silero_vad.onnx'));
    expect(manager.status('silero-vad-v5')).toMatchObject({ state: 'installed', built_in: false, dir: copy });
    await manager.remove('silero-vad-v5');
    expect(existsSync(copy)).toBe(false);
    // Back to the shipped one.
    expect(manager.status('silero-vad-v5')).toMatchObject({ state: 'installed', built_in: true });
    expect(manager.supportModelPath('silero-vad')).toBe(join(builtInModelsDir(), 'silero_vad_v5.onnx'));
  });

  it('without built-ins (the default) the VAD is a download as before', async () => {
    const manager = await ModelManager.open({ dataDir: dir, store: createSqliteStore(db, join(dir, 'voxdesk.db')) });
    expect(manager.supportModelPath('silero-vad')).toBeNull();
    expect(manager.status('silero-vad-v5')).toMatchObject({ state: 'not_installed', built_in: false });
  });
});
