/** Migration 002 on a real database file: the model manager's tables and their constraints. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createModelsRepo } from '../../../src-main/store/models-repo.js';
import { appliedVersions } from '../../../src-main/store/migrate.js';
import { openDatabase, type Db } from '../../../src-main/store/database.js';

let dir: string;
let db: Db;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-m002-'));
  db = openDatabase(join(dir, 'voxdesk.db'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('migration 002 (models)', () => {
  it('is applied once, with the installed_models and downloads tables', () => {
    expect(appliedVersions(db)).toContain(2);
    const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((r) => r.name);
    expect(tables).toEqual(expect.arrayContaining(['installed_models', 'downloads']));
    db.close();
    db = openDatabase(join(dir, 'voxdesk.db')); // reopening applies nothing twice
    expect(appliedVersions(db).filter((v) => v === 2)).toHaveLength(1);
  });

  it('keeps download progress and failures, and refuses unknown states', () => {
    const store = createModelsRepo(db);
    store.startDownload('m', 1000);
    store.saveProgress('m', { fileIndex: 0, fileBytesDone: 400, bytesDone: 400, etag: '"e1"' });
    expect(store.download('m')).toMatchObject({ status: 'downloading', bytesDone: 400, bytesTotal: 1000, etag: '"e1"' });
    store.failDownload('m', 'download_failed', 'HTTP 503');
    expect(store.download('m')).toMatchObject({ status: 'failed', errorCode: 'download_failed', errorMessage: 'HTTP 503' });
    store.startDownload('m', 1000); // a new attempt clears the error, keeps the progress
    expect(store.download('m')).toMatchObject({ status: 'downloading', errorCode: null, bytesDone: 400 });
    expect(() => db.prepare("UPDATE downloads SET status = 'paused'").run()).toThrow(/CHECK constraint/);
    expect(() => db.prepare("INSERT INTO installed_models (id, source, name, family, capability, languages_json, licence, version, dir, files_json, size_bytes, sha256_json, verified, installed_at) VALUES ('x', 'elsewhere', 'x', 'f', 'asr', '[]', 'l', 'v', '/d', '{}', 0, '{}', 0, 'now')").run()).toThrow(/CHECK constraint/);
  });
});
