/**
 * The model manager's view of the store (installed-store.ts) over a store that answers later, as PostgreSQL's does
 * (each call settles after a turn of the event loop, not at once like SQLite's): reads stay synchronous and answer
 * what was written, writes run in call order, a reload never lands between a write and its re-read, and another
 * connection's change shows after refresh().
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InstalledStore, type InstalledModel, type ModelStore } from '../../../src-main/models/installed-store.js';
import { openDatabase, type Db } from '../../../src-main/store/database.js';
import { createRepositories } from '../../../src-main/store/repositories.js';
import { createSqliteStore } from '../../../src-main/store/sqlite-store.js';

let dir: string;
let db: Db;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-installed-store-'));
  db = openDatabase(join(dir, 'voxdesk.db'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The SQLite store with every models call answering after a macrotask (a network round trip's shape). */
function laterStore(): ModelStore {
  const store = createSqliteStore(db, join(dir, 'voxdesk.db'));
  const later = <T>(call: () => Promise<T>): Promise<T> => new Promise((resolve, reject) => setImmediate(() => call().then(resolve, reject)));
  const models = Object.fromEntries(
    Object.entries(store.repos.models).map(([name, fn]) => [name, (...args: unknown[]) => later(() => (fn as (...a: unknown[]) => Promise<unknown>)(...args))]),
  ) as unknown as ModelStore['repos']['models'];
  return { repos: { models, settings: store.repos.settings }, othersVersion: () => later(() => store.othersVersion()) };
}

function model(id: string, overrides: Partial<InstalledModel> = {}): InstalledModel {
  return {
    id,
    source: 'imported',
    name: id,
    description: '',
    family: 'nemo-ctc',
    capability: 'asr',
    languages: ['en'],
    licence: 'unknown',
    version: 'imported',
    dir: join(dir, 'models', id),
    files: { model: 'model.onnx', tokens: 'tokens.txt' },
    sizeBytes: 1,
    sha256: {},
    verified: false,
    curatedListVersion: null,
    installedAt: new Date().toISOString(),
    ...overrides,
  };
}

describe('the model manager\'s view of the store', () => {
  it('loads what is stored, answers reads synchronously and shows each write once it has resolved', async () => {
    createRepositories(db).models.putInstalled(model('before'));
    let changes = 0;
    const view = await InstalledStore.open(laterStore(), [], () => (changes += 1));
    expect(view.installed().map((m) => m.id)).toEqual(['before']);
    const loaded = changes;

    const writes = [view.startDownload('a', 100), view.failDownload('a', 'download_failed', 'HTTP 404'), view.putInstalled(model('b'))];
    await Promise.all(writes);
    expect(view.download('a')).toMatchObject({ status: 'failed', errorCode: 'download_failed', bytesTotal: 100 });
    expect(view.installedById('b')).toMatchObject({ id: 'b', family: 'nemo-ctc' });
    expect(changes).toBe(loaded + 3);

    await view.saveProgress('a', { fileIndex: 0, fileBytesDone: 10, bytesDone: 10, etag: null });
    expect(view.download('a')).toMatchObject({ bytesDone: 10 });
    expect(changes).toBe(loaded + 3); // progress is not shown, so it does not count

    await view.putInstalled(model('a'));
    expect(view.download('a')).toBeNull(); // installed in one transaction with its download forgotten
    await view.deleteInstalled('before');
    expect(view.installed().map((m) => m.id).sort()).toEqual(['a', 'b']);
  });

  it('refuses a URL package id another process took first, and forgets one with its rows', async () => {
    const view = await InstalledStore.open(laterStore(), [], () => {});
    const row = { id: 'u', name: 'U', url: 'https://example.com/u.onnx', sha256: 'a'.repeat(64), sizeBytes: null, family: null, languages: [] };
    createRepositories(db).models.addUrlPackage(row);
    expect(view.urlPackage('u')).toBeNull(); // not looked yet
    expect(await view.addUrlPackage(row)).toBe(false);
    expect(view.urlPackage('u')).toMatchObject({ id: 'u' }); // the write's re-read shows the winner's row
    await view.startDownload('u', 10);
    await view.deleteUrlPackage('u');
    expect([view.urlPackage('u'), view.download('u')]).toEqual([null, null]);
  });

  it('sees another connection\'s change after refresh(), and nothing when nothing changed', async () => {
    const view = await InstalledStore.open(laterStore(), [], () => {});
    expect(await view.refresh()).toBe(false);
    const other = openDatabase(join(dir, 'voxdesk.db'));
    createRepositories(other).models.putInstalled(model('elsewhere'));
    other.close();
    expect(view.installedById('elsewhere')).toBeNull();
    const [first, second] = [view.refresh(), view.refresh()];
    expect(first).toBe(second); // one look at a time, shared
    expect(await first).toBe(true);
    expect(view.installedById('elsewhere')).toMatchObject({ id: 'elsewhere' });
  });

  it('keeps a write that lands while a reload runs (the reload waits for it)', async () => {
    const view = await InstalledStore.open(laterStore(), [], () => {});
    const other = openDatabase(join(dir, 'voxdesk.db'));
    createRepositories(other).models.putInstalled(model('elsewhere'));
    other.close();
    const looking = view.refresh();
    const writing = view.putInstalled(model('mine'));
    await Promise.all([looking, writing]);
    expect(view.installed().map((m) => m.id).sort()).toEqual(['elsewhere', 'mine']);
  });

  it('lists a shipped model as installed until a stored row of its id is', async () => {
    const shipped = model('vad', { source: 'curated', family: 'silero-vad', capability: 'support', dir: '/app/resources/models' });
    const view = await InstalledStore.open(laterStore(), [shipped], () => {});
    expect(view.isBuiltIn('vad')).toBe(true);
    expect(view.installedById('vad')!.dir).toBe('/app/resources/models');
    await view.putInstalled({ ...shipped, dir: join(dir, 'models', 'vad') });
    expect(view.isBuiltIn('vad')).toBe(false);
    expect(view.installed().filter((m) => m.id === 'vad')).toHaveLength(1);
  });
});
