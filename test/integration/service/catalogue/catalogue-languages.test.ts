/**
 * Issue 32, point 3: an imported model's catalogue row says which languages it speaks. An imported SenseVoice listed
 * `languages: []` though its own schema offered zh, en, ja, ko, yue; imported voices did the same. Each tiny model of
 * ../shared/models/tiny is imported through the service's own route, as a person would, and its public catalogue row
 * read over HTTP.
 */
import { copyFileSync, cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueRecord } from '../../../../src-main/common/api-types.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { Client, json } from '../../../helpers/http-client.js';
import { piperMarkedVits, TINY } from '../../../helpers/tiny-archives.js';
import { scaled } from '../../../helpers/time-scale.js';

let t: TestService;
let api: Client;
let work: string;

async function importFolder(path: string, id: string): Promise<void> {
  await json(api.postJson('/v1/local/models/import', { path, id }), 202);
  await t.service.models.whenImported(id);
}

beforeAll(async () => {
  t = await startTestService();
  api = new Client(t.url, t.key);
  work = mkdtempSync(join(tmpdir(), 'voxdesk-languages-'));
  // A Piper voice as its release folders ship it: the model, its .onnx.json (language en_GB), tokens, espeak-ng-data.
  const piper = join(work, 'piper-voice');
  cpSync(join(TINY, 'tiny-kokoro', 'espeak-ng-data'), join(piper, 'espeak-ng-data'), { recursive: true });
  writeFileSync(join(piper, 'en_GB-test-medium.onnx'), piperMarkedVits());
  copyFileSync(join(TINY, 'tiny-vits', 'tokens.txt'), join(piper, 'tokens.txt'));
  writeFileSync(join(piper, 'en_GB-test-medium.onnx.json'), JSON.stringify({ audio: { sample_rate: 22050 }, num_speakers: 1, language: { code: 'en_GB' }, espeak: { voice: 'en-gb' } }));
  for (const [dir, id] of [
    ['tiny-sense-voice', 'imported-sense-voice'],
    ['tiny-whisper', 'imported-whisper'],
    ['tiny-nemo-tdt', 'imported-parakeet'],
    ['tiny-moonshine', 'imported-moonshine'],
    ['tiny-streaming-zipformer', 'imported-zipformer'],
    ['tiny-kokoro', 'imported-kokoro'],
    ['tiny-vits', 'imported-vits'],
  ] as const) {
    await importFolder(join(TINY, dir), id);
  }
  await importFolder(piper, 'imported-piper');
}, scaled(120_000));
afterAll(async () => {
  await t?.stop();
  rmSync(work, { recursive: true, force: true });
});

async function row(id: string): Promise<CatalogueRecord & { params_schema: { properties: Record<string, { enum?: unknown[] }> } }> {
  return json(api.get(`/v1/models/${id}`));
}

describe('catalogue languages of imported models', () => {
  it('an imported SenseVoice lists its five languages, the same its language param offers', async () => {
    const sv = await row('imported-sense-voice');
    expect(sv.languages).toEqual(['zh', 'en', 'ja', 'ko', 'yue']);
    expect(sv.params_schema.properties.language!.enum).toEqual(['auto', ...sv.languages]);
  });

  it('an imported multilingual Whisper lists the languages its metadata declares', async () => {
    expect((await row('imported-whisper')).languages).toEqual(['en', 'zh', 'de', 'es', 'ru', 'ko', 'fr', 'ja', 'pt', 'it']);
  });

  it('imported NeMo, Moonshine and streaming Zipformer models with an English vocabulary list en', async () => {
    for (const id of ['imported-parakeet', 'imported-moonshine', 'imported-zipformer']) expect((await row(id)).languages, id).toEqual(['en']);
  });

  it('imported voices list theirs: Kokoro and VITS from their metadata, Piper from its .onnx.json', async () => {
    expect((await row('imported-kokoro')).languages).toEqual(['en']);
    expect((await row('imported-vits')).languages).toEqual(['en']);
    expect((await row('imported-piper')).languages).toEqual(['en-gb']);
  });

  it('GET /v1/models lists no available model without languages', async () => {
    const all = await json<{ data: CatalogueRecord[] }>(api.get('/v1/models'));
    const imported = all.data.filter((m) => m.id.startsWith('imported-'));
    // Eight imported models, and voice design on the imported Kokoro (imported-kokoro-voice-design).
    expect(imported).toHaveLength(9);
    for (const m of imported) expect(m.languages.length, m.id).toBeGreaterThan(0);
  });
});
