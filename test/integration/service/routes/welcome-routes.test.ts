/**
 * GET /v1/local/welcome over real HTTP: on a fresh data dir the offer for the person's language (Parakeet v2 for
 * English, Parakeet v3 then Whisper small for German, Whisper small for Japanese) with sizes and licences; the
 * download state as the model manager reports it while a download runs (served slowly by a local server); PocketSphinx
 * as the low-accuracy fallback; not new once a job exists; bad language 400; other accounts 404.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WelcomeInfo } from '../../../../src-main/common/api-types.js';
import { pocketsphinxModelSource } from '../../../../src-main/engines/asr/pocketsphinx-models.js';
import { CURATED_PACKAGES, type ModelPackage } from '../../../../src-main/models/packages/curated-models.js';
import { startRangeServer, type RangeServer } from '../../../helpers/range-server.js';
import { startTestService, testModelSource, type TestService } from '../../../helpers/service.js';
import { SHARED } from '../../../helpers/system.js';
import { sha256 } from '../../../helpers/tiny-archives.js';

let t: TestService;
let server: RangeServer;
const auth = (key = t.key): Record<string, string> => ({ authorization: `Bearer ${key}` });
const welcome = async (query = '', key?: string): Promise<{ status: number; body: WelcomeInfo & { error?: { code: string } } }> => {
  const res = await fetch(`${t.url}/v1/local/welcome${query}`, { headers: auth(key) });
  return { status: res.status, body: (await res.json()) as WelcomeInfo & { error?: { code: string } } };
};

beforeAll(async () => {
  // Parakeet v2 as the curated entry, its archive the release-shaped tiny one, served in slow chunks.
  const archive = readFileSync(join(SHARED, 'models', 'tiny', 'archives', 'sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8.tar.bz2'));
  const v2 = CURATED_PACKAGES.find((p) => p.id === 'parakeet-tdt-0.6b-v2')!;
  const file = v2.files[0]!;
  const packages: ModelPackage[] = [
    { ...v2, files: [{ ...file, sha256: sha256(archive), sizeBytes: archive.length }] },
    ...CURATED_PACKAGES.filter((p) => p.id !== v2.id),
  ];
  server = await startRangeServer({ [`/${v2.id}/${basename(new URL(file.url).pathname)}`]: { body: archive, slowChunkMs: 200 } });
  t = await startTestService({ modelPackages: packages, modelMirror: server.url, extraModelSources: [testModelSource, pocketsphinxModelSource] });
});
afterAll(async () => {
  await t?.stop();
  await server?.close();
});

describe('GET /v1/local/welcome', () => {
  it('offers the recognizer for the language with size and licence, and PocketSphinx as the low-accuracy fallback', async () => {
    const en = await welcome();
    expect(en.status).toBe(200);
    expect(en.body).toMatchObject({ object: 'welcome', new_data_dir: true, language: 'en', alternatives: [] });
    expect(en.body.recommended).toMatchObject({ id: 'parakeet-tdt-0.6b-v2', reason: 'best_for_english', licence: 'CC-BY-4.0', state: 'not_installed' });
    expect(en.body.fallback).toMatchObject({ id: 'pocketsphinx-en-us', languages: ['en'], accuracy: 'low', available: true });

    const de = await welcome('?language=de-AT');
    expect(de.body.language).toBe('de');
    expect(de.body.recommended).toMatchObject({ id: 'parakeet-tdt-0.6b-v3', reason: 'european_languages', size_bytes: 487_170_055, licence: 'CC-BY-4.0' });
    expect(de.body.alternatives.map((a) => [a.id, a.size_bytes, a.licence])).toEqual([['whisper-small', 639_387_718, 'MIT']]);

    expect((await welcome('?language=ja')).body.recommended).toMatchObject({ id: 'whisper-small', reason: 'many_languages' });
  });

  it('shows the download under way with its progress, as the model manager reports it', async () => {
    const started = await fetch(`${t.url}/v1/local/models/parakeet-tdt-0.6b-v2/download`, { method: 'POST', headers: auth() });
    expect(started.status).toBe(202);
    let seen: WelcomeInfo | null = null;
    for (let i = 0; i < 200; i++) {
      seen = (await welcome()).body;
      if (seen.recommended!.state === 'downloading' && (seen.recommended!.progress ?? 0) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(seen!.recommended).toMatchObject({ state: 'downloading', progress: expect.any(Number), downloaded_bytes: expect.any(Number) });
    expect(seen!.new_data_dir).toBe(true); // a download under way does not end the first start
    await t.service.models.whenDone('parakeet-tdt-0.6b-v2');
    const after = (await welcome()).body;
    expect(after.recommended).toMatchObject({ state: 'installed', progress: null });
    expect(after.new_data_dir).toBe(false);
  });

  it('a data dir with a job is not new', async () => {
    const other = await startTestService({});
    try {
      const res = await fetch(`${other.url}/v1/local/welcome`, { headers: { authorization: `Bearer ${other.key}` } });
      expect(((await res.json()) as WelcomeInfo).new_data_dir).toBe(true);
      await fetch(`${other.url}/v1/text-to-speech`, { method: 'POST', headers: { authorization: `Bearer ${other.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'test-tts', text: 'hello' }) });
      const again = await fetch(`${other.url}/v1/local/welcome`, { headers: { authorization: `Bearer ${other.key}` } });
      expect(((await again.json()) as WelcomeInfo).new_data_dir).toBe(false);
    } finally {
      await other.stop();
    }
  });

  it('refuses a language that is not a language tag (400) and answers other accounts 404', async () => {
    const bad = await welcome('?language=english%20please');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'invalid_request' });
    const guest = await t.service.keys.createKey('guest');
    expect((await welcome('', guest)).status).toBe(404);
  });
});
