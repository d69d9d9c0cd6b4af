/**
 * The hosted catalogue as a model source, on a real SQLite file: prefixed ids, hosted prices and status, the cache
 * surviving a restart with the hosted side gone, settings changes, and rows that must not be forwarded.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueRecord } from '../../../src-main/common/api-types.js';
import { withSecrets } from '../../helpers/secrets.js';
import { createRemoteProvider } from '../../../src-main/remote/remote-provider.js';
import { openDatabase } from '../../../src-main/store/database.js';
import { silentLog } from '../../../src-main/common/log.js';

const HOSTED: Partial<CatalogueRecord>[] = [
  {
    id: 'whisper-turbo',
    name: 'Whisper turbo',
    capability: 'asr',
    status: 'available',
    provider: 'local',
    languages: ['en', 'de'],
    pricing: { currency: 'USD', request_fee_usd: 0.05, per_minute_usd: 0.006, options: { speaker_diarization: { per_minute_usd: 0.0075 } } },
    limits: { max_file_bytes: 80_000_000, max_audio_seconds: 7200, max_text_chars: null },
    params_schema: { type: 'object', properties: { language: { type: 'string' } }, additionalProperties: false },
  },
  { id: 'big-tts', name: 'Big TTS', capability: 'tts', status: 'unavailable', reason: 'not downloaded', provider: 'local', languages: ['en'] },
  { id: 'chained', name: 'Forwarded elsewhere', capability: 'asr', status: 'available', provider: 'remote' },
  { id: 'odd', name: 'Unknown capability', capability: 'telepathy' as never, status: 'available', provider: 'local' },
];

let server: Server;
let base: string;
let dir: string;
let hits = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-remote-catalogue-'));
  server = createServer((req, res) => {
    hits++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', data: HOSTED }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});


describe('remote model source', () => {
  it('lists nothing until a hosted service is configured', async () => {
    const db = openDatabase(join(dir, 'none.db'));
    const remote = await createRemoteProvider({ ...withSecrets(dir, db), env: {}, log: silentLog });
    expect(remote.source.list()).toEqual([]);
    expect(remote.view()).toMatchObject({ url: null, key_set: false });
    db.close();
  });

  it('maps hosted rows to remote:<id> with hosted prices, keeps them offline, and follows settings', async () => {
    const file = join(dir, 'cache.db');
    let db = openDatabase(file);
    let remote = await createRemoteProvider({ ...withSecrets(dir, db), env: {}, log: silentLog, initial: { url: `${base}/v1/`, key: 'vdk_hosted' } });
    await remote.source.refresh();
    const rows = remote.source.list();
    expect(rows.map((r) => r.id)).toEqual(['remote:big-tts', 'remote:whisper-turbo']);
    const whisper = rows.find((r) => r.id === 'remote:whisper-turbo')!;
    expect(whisper).toMatchObject({
      provider: 'remote',
      engine: 'remote',
      engineConfig: { remoteModelId: 'whisper-turbo' },
      capability: 'asr',
      products: ['speech-to-text'],
      status: 'available',
      languages: ['en', 'de'],
      live: false,
      limits: { max_file_bytes: 80_000_000, max_audio_seconds: 7200, max_text_chars: null },
      pricing: { request_fee_usd: 0.05, per_minute_usd: 0.006, options: { speaker_diarization: { per_minute_usd: 0.0075 } } },
    });
    expect(whisper.paramsSchema).toEqual(HOSTED[0]!.params_schema);
    expect(rows.find((r) => r.id === 'remote:big-tts')).toMatchObject({ status: 'unavailable', reason: 'hosted: not downloaded', products: ['text-to-speech'] });
    expect(remote.view()).toMatchObject({ url: base, key_set: true, catalogue: { models: 2, last_error: null } });
    db.close();

    // Restart with the hosted service unreachable: the cached rows are still there.
    const fetches = hits;
    db = openDatabase(file);
    remote = await createRemoteProvider({ ...withSecrets(dir, db), env: {}, log: silentLog });
    expect(remote.source.list().map((r) => r.id)).toEqual(['remote:big-tts', 'remote:whisper-turbo']);
    expect(hits).toBe(fetches);

    // Clearing the key keeps the rows but makes them unavailable with a reason; a new URL drops the old rows.
    let view = await remote.update({ url: base, key: '' });
    expect(view.key_set).toBe(false);
    expect(remote.source.list().every((r) => r.status === 'unavailable' && /API key/.test(r.reason ?? ''))).toBe(true);
    view = await remote.update({ url: 'http://127.0.0.1:1', key: 'k2' });
    expect(view).toMatchObject({ url: 'http://127.0.0.1:1', key_set: true, catalogue: { models: 0 } });
    expect(view.catalogue.last_error).toMatch(/cannot be reached/);
    expect(remote.source.list()).toEqual([]);
    // Turning forwarding off is a change of URL too: the key given for the old one is not kept.
    await remote.update({ url: null });
    expect(remote.view()).toMatchObject({ url: null, key_set: false });
    db.close();
  });

  it('refuses URLs that are not http(s) origins', async () => {
    const db = openDatabase(join(dir, 'bad.db'));
    const remote = await createRemoteProvider({ ...withSecrets(dir, db), env: {}, log: silentLog });
    await expect(remote.update({ url: 'ftp://example.com' })).rejects.toThrow(/http/);
    await expect(remote.update({ url: 'not a url' })).rejects.toThrow(/not a URL/);
    await expect(remote.update({ url: 'https://user:pw@example.com' })).rejects.toThrow(/credentials/);
    expect(remote.view().url).toBeNull();
    db.close();
  });
});
