/**
 * The catalogue keeps what its sources answered, yet every change shows in the very next read: a finished download,
 * a deleted package, a package pulled or removed by another process on the same database (`voxdesk models pull`
 * beside the service), a hosted catalogue refresh, hosted settings, and an edited pricing file. Real service, real
 * HTTP, a real download server and a real second SQLite connection.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CatalogueRecord, Quote } from '../../../../src-main/common/api-types.js';
import { ModelManager } from '../../../../src-main/models/model-manager.js';
import { openDatabase } from '../../../../src-main/store/database.js';
import { createRepositories } from '../../../../src-main/store/repositories.js';
import { createSqliteStore } from '../../../../src-main/store/sqlite-store.js';
import { Client, json } from '../../../helpers/http-client.js';
import { startRangeServer, type RangeServer } from '../../../helpers/range-server.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { SHARED } from '../../../helpers/system.js';
import { silentLog } from '../../../../src-main/common/log.js';

const GTCRN = readFileSync(join(SHARED, 'models', 'gtcrn_simple.onnx'));
const PRICE = (fee: number) => ({ request_fee_usd: fee, per_minute_usd: 0 });

let t: TestService;
let api: Client;
let mirror: RangeServer;
let hosted: Server;
let hostedRows: Array<Partial<CatalogueRecord>>;
let pricingDir: string;
let pricingFile: string;

beforeAll(async () => {
  mirror = await startRangeServer({ '/gtcrn-simple/gtcrn_simple.onnx': { body: GTCRN } });
  hostedRows = [{ id: 'hosted-asr', name: 'Hosted ASR', capability: 'asr', status: 'available', provider: 'local', languages: ['en'] }];
  hosted = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', data: hostedRows }));
  });
  await new Promise<void>((resolve) => hosted.listen(0, '127.0.0.1', resolve));
  pricingDir = mkdtempSync(join(tmpdir(), 'voxdesk-live-pricing-'));
  pricingFile = join(pricingDir, 'pricing.json');
  writeFileSync(pricingFile, JSON.stringify({ models: { 'test-tts': PRICE(0.01) } }));
  t = await startTestService({ modelMirror: mirror.url, pricingFile });
  api = new Client(t.url, t.key);
});

afterAll(async () => {
  await t?.stop();
  await mirror?.close();
  await new Promise<void>((resolve) => (hosted ? hosted.close(() => resolve()) : resolve()));
  rmSync(pricingDir, { recursive: true, force: true });
});

const model = (id: string) => json<CatalogueRecord>(fetch(`${t.url}/v1/models/${id}`));
const listed = async (query = '?include_unavailable=true') =>
  (await json<{ data: CatalogueRecord[] }>(fetch(`${t.url}/v1/models${query}`))).data;

describe('the catalogue follows its sources at once', () => {
  it('a download that finished is available in the next read; a deleted package is not', async () => {
    expect(await model('gtcrn-simple')).toMatchObject({ status: 'unavailable', reason: expect.stringContaining('not downloaded') });
    expect((await listed('')).map((m) => m.id)).not.toContain('gtcrn-simple');

    mirror.files.set('/gtcrn-simple/gtcrn_simple.onnx', { body: GTCRN, slowChunkMs: 20 });
    await json(api.post('/v1/local/models/gtcrn-simple/download'), 202);
    expect(t.service.catalogue.resolveModel('gtcrn-simple')).toMatchObject({ status: 'unavailable', downloading: true });
    expect(await model('gtcrn-simple')).toMatchObject({ reason: expect.stringContaining('downloading') });

    await t.service.models.whenDone('gtcrn-simple');
    expect(t.service.catalogue.resolveModel('gtcrn-simple')).toMatchObject({ status: 'available', downloading: false });
    expect(await model('gtcrn-simple')).toMatchObject({ status: 'available', reason: null, download: { installed: true } });
    expect((await listed('')).map((m) => m.id)).toContain('gtcrn-simple');

    await json(fetch(`${t.url}/v1/local/models/gtcrn-simple`, { method: 'DELETE', headers: api.headers() }));
    expect(t.service.catalogue.resolveForJobs('gtcrn-simple')).toMatchObject({ status: 'unavailable' });
    expect(await model('gtcrn-simple')).toMatchObject({ status: 'unavailable', reason: expect.stringContaining('not downloaded') });
  });

  it('a package another process pulls or removes on the same database shows in the next read', async () => {
    mirror.files.set('/gtcrn-simple/gtcrn_simple.onnx', { body: GTCRN });
    const file = join(t.dataDir, 'voxdesk.db');
    const db = openDatabase(file);
    const cli = await ModelManager.open({ dataDir: t.dataDir, store: createSqliteStore(db, file), mirror: mirror.url, log: silentLog });
    // The service looks for another process's change in the background at each catalogue read, so the read after
    // the look shows it; refresh() is that look, awaited.
    const looked = () => t.service.models.refresh();
    try {
      expect(t.service.catalogue.resolveModel('gtcrn-simple')!.status).toBe('unavailable');
      cli.pull('gtcrn-simple');
      expect(await cli.whenDone('gtcrn-simple')).not.toBeNull();
      expect(await looked()).toBe(true);
      expect(t.service.catalogue.resolveModel('gtcrn-simple')!.status).toBe('available');
      expect(await model('gtcrn-simple')).toMatchObject({ status: 'available' });

      await cli.remove('gtcrn-simple');
      // Over HTTP without an explicit look: the read that starts the look may be the one before the change shows.
      await expect.poll(async () => (await model('gtcrn-simple')).status).toBe('unavailable');
      expect(t.service.catalogue.resolveModel('gtcrn-simple')!.status).toBe('unavailable');
    } finally {
      await cli.stop();
      db.close();
    }
  });

  it('a download another process left running stops counting as running once its row is a minute old', async () => {
    const db = openDatabase(join(t.dataDir, 'voxdesk.db'));
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-11-23T09:00:00Z'));
      createRepositories(db).models.startDownload('gtcrn-simple', GTCRN.length);
      expect(await t.service.models.refresh()).toBe(true);
      expect(t.service.catalogue.resolveModel('gtcrn-simple')).toMatchObject({ status: 'unavailable', downloading: true });
      vi.setSystemTime(new Date('2026-11-23T09:00:59.999Z'));
      expect(t.service.catalogue.resolveModel('gtcrn-simple')).toMatchObject({ downloading: true });
      vi.setSystemTime(new Date('2026-11-23T09:01:00.000Z'));
      expect(t.service.catalogue.resolveModel('gtcrn-simple')).toMatchObject({ status: 'unavailable', downloading: false });
      expect(t.service.catalogue.resolveModel('gtcrn-simple')!.reason).toContain('not downloaded');
    } finally {
      vi.useRealTimers();
      createRepositories(db).models.deleteDownload('gtcrn-simple');
      db.close();
    }
    await t.service.models.refresh();
    expect(t.service.catalogue.resolveModel('gtcrn-simple')).toMatchObject({ downloading: false });
  });

  it('hosted rows follow the settings and each catalogue refresh', async () => {
    const url = `http://127.0.0.1:${(hosted.address() as AddressInfo).port}`;
    const put = (body: unknown) => fetch(`${t.url}/v1/settings/remote`, { method: 'PUT', headers: api.headers({ 'content-type': 'application/json' }), body: JSON.stringify(body) });
    await json(put({ url, key: 'vdk_hosted' }));
    expect(await model('remote:hosted-asr')).toMatchObject({ status: 'available', provider: 'remote' });

    hostedRows = [...hostedRows, { id: 'hosted-tts', name: 'Hosted TTS', capability: 'tts', status: 'available', provider: 'local', languages: ['en'] }];
    expect(t.service.catalogue.resolveModel('remote:hosted-tts')).toBeUndefined();
    await t.service.remote.source.refresh();
    expect(t.service.catalogue.resolveModel('remote:hosted-tts')).toMatchObject({ status: 'available' });
    expect((await listed()).map((m) => m.id)).toEqual(expect.arrayContaining(['remote:hosted-asr', 'remote:hosted-tts']));

    await json(put({ url, key: '' }));
    expect(await model('remote:hosted-tts')).toMatchObject({ status: 'unavailable', reason: expect.stringContaining('API key') });
    await json(put({ url: null }));
    expect(t.service.catalogue.resolveModel('remote:hosted-asr')).toBeUndefined();
    expect((await listed()).some((m) => m.id.startsWith('remote:'))).toBe(false);
  });

  it('an edited pricing file prices the next read; an edit that does not parse keeps the prices before it', async () => {
    const quote = (id: string) => json<Quote>(fetch(`${t.url}/v1/models/${id}/quote?seconds=60`));
    expect((await model('test-tts')).pricing.request_fee_usd).toBe(0.01);
    expect(t.service.catalogue.resolveForJobs('test-tts')!.pricing!.request_fee_usd).toBe(0.01);

    writeFileSync(pricingFile, JSON.stringify({ models: { 'test-tts': PRICE(0.02) }, default: PRICE(0.5) }));
    expect((await model('test-tts')).pricing.request_fee_usd).toBe(0.02);
    expect(t.service.catalogue.resolveForJobs('test-tts')!.pricing!.request_fee_usd).toBe(0.02);
    expect((await listed()).find((m) => m.id === 'espeak-ng')!.pricing.request_fee_usd).toBe(0.5);
    expect((await quote('test-tts')).total_usd).toBe(0.02);

    writeFileSync(pricingFile, '{"models": ');
    expect((await model('test-tts')).pricing.request_fee_usd).toBe(0.02);
    writeFileSync(pricingFile, '{}');
    expect((await model('test-tts')).pricing.request_fee_usd).toBe(0);
    expect((await model('espeak-ng')).pricing.request_fee_usd).toBe(0);
  });
});
