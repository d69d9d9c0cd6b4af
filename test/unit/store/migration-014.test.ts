/** Migration 014 on a real database file: packages added by URL, and installed rows that keep their data. */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/store/database.js';
import { applyMigrations, appliedVersions } from '../../../src-main/store/migrate.js';
import { MIGRATIONS } from '../../../src-main/store/migrations/index.js';
import { createModelsRepo } from '../../../src-main/store/models-repo.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-m014-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('migration 014 (url-model-packages)', () => {
  it('keeps the installed models of an older database and accepts packages added by URL', () => {
    const path = join(dir, 'voxdesk.db');
    const old = new Database(path);
    applyMigrations(old, MIGRATIONS.filter((m) => m.version < 14));
    old
      .prepare(
        `INSERT INTO installed_models (id, source, name, family, capability, languages_json, licence, version, dir, files_json, size_bytes, sha256_json, verified, installed_at)
         VALUES ('ctc', 'imported', 'CTC', 'nemo-ctc', 'asr', '["en"]', 'x', 'imported', '/m/ctc', '{"model":"model.onnx"}', 5, '{}', 0, '2026-01-01T00:00:00.000Z')`,
      )
      .run();
    old.close();

    const db = openDatabase(path);
    try {
      expect(appliedVersions(db)).toContain(14);
      const repo = createModelsRepo(db);
      expect(repo.installedById('ctc')).toMatchObject({ source: 'imported', family: 'nemo-ctc', files: { model: 'model.onnx' }, languages: ['en'] });
      const sha = 'c'.repeat(64);
      expect(repo.addUrlPackage({ id: 'm', name: 'M', url: 'https://x.example/m.onnx', sha256: sha, sizeBytes: null, family: null, languages: [] })).toBe(true);
      expect(repo.addUrlPackage({ id: 'm', name: 'again', url: 'https://x.example/m.onnx', sha256: sha, sizeBytes: 1, family: null, languages: [] })).toBe(false);
      expect(repo.urlPackage('m')).toMatchObject({ id: 'm', name: 'M', sizeBytes: null, family: null, languages: [] });
      repo.putInstalled({ ...repo.installedById('ctc')!, id: 'm', source: 'url' });
      repo.startDownload('m', 10);
      repo.deleteUrlPackage('m');
      expect([repo.urlPackage('m'), repo.installedById('m'), repo.download('m')]).toEqual([null, null, null]);
      expect(() => db.prepare("INSERT INTO url_model_packages (id, name, url, sha256, added_at) VALUES ('x', 'x', 'u', 'short', 'now')").run()).toThrow(/CHECK constraint/);
    } finally {
      db.close();
    }
  });
});
