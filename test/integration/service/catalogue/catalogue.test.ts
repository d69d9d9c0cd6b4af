/** The public catalogue over HTTP: filters, unavailable rows, one model, quotes, and prices from a pricing file. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueRecord, Quote } from '../../../../src-main/common/api-types.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { expectError, json } from '../../../helpers/http-client.js';

let t: TestService;
let pricingDir: string;
beforeAll(async () => {
  pricingDir = mkdtempSync(join(tmpdir(), 'voxdesk-pricing-'));
  const pricingFile = join(pricingDir, 'pricing.json');
  writeFileSync(
    pricingFile,
    JSON.stringify({ models: { 'test-tts': { request_fee_usd: 0.05, per_minute_usd: 0.1 } }, default: { request_fee_usd: 0.01, per_minute_usd: 0 } }),
  );
  t = await startTestService({ pricingFile });
});
afterAll(async () => {
  await t?.stop();
  rmSync(pricingDir, { recursive: true, force: true });
});

const list = (query = '') => json<{ object: string; data: CatalogueRecord[] }>(fetch(`${t.url}/v1/models${query}`));

describe('GET /v1/models', () => {
  it('lists available models only by default, with every documented field', async () => {
    const body = await list();
    expect(body.object).toBe('list');
    const ids = body.data.map((m) => m.id);
    expect(ids).toContain('test-asr');
    expect(ids).not.toContain('test-missing');
    expect(ids).toContain('espeak-ng');
    const asr = body.data.find((m) => m.id === 'test-asr')!;
    expect(Object.keys(asr)).toEqual(
      expect.arrayContaining(['id', 'name', 'capability', 'status', 'provider', 'languages', 'live', 'pricing', 'limits', 'params_schema', 'download']),
    );
  });
  it('include_unavailable=true adds unavailable rows with their reason', async () => {
    const missing = (await list('?include_unavailable=true')).data.find((m) => m.id === 'test-missing')!;
    expect(missing).toMatchObject({ status: 'unavailable', reason: expect.stringContaining('not downloaded'), download: { size_bytes: 1000, installed: false } });
    await expectError(fetch(`${t.url}/v1/models?include_unavailable=maybe`), 400, 'invalid_request');
  });
  it('filters by capability; an unknown capability is 400 invalid_request', async () => {
    const tts = (await list('?capability=tts')).data;
    expect(tts.length).toBeGreaterThan(0);
    expect(tts.every((m) => m.capability === 'tts')).toBe(true);
    await expectError(fetch(`${t.url}/v1/models?capability=singing`), 400, 'invalid_request');
  });
  it('GET /v1/models/{id} returns unavailable models too; unknown → 404', async () => {
    expect((await json<CatalogueRecord>(fetch(`${t.url}/v1/models/test-missing`))).status).toBe('unavailable');
    await expectError(fetch(`${t.url}/v1/models/nope`), 404, 'not_found');
  });
});

describe('prices and quotes', () => {
  it('pricing file: models[id] overrides, default applies to other on-device models, a model price of its own stays', async () => {
    const byId = new Map((await list()).data.map((m) => [m.id, m.pricing]));
    expect(byId.get('test-tts')).toMatchObject({ request_fee_usd: 0.05, per_minute_usd: 0.1 });
    expect(byId.get('espeak-ng')).toMatchObject({ request_fee_usd: 0.01, per_minute_usd: 0 });
    expect(byId.get('test-asr')).toMatchObject({ request_fee_usd: 0.05, per_minute_usd: 0.006 });
  });
  it('quotes with the spec formula, with a priced option', async () => {
    const q = await json<Quote>(fetch(`${t.url}/v1/models/test-asr/quote?seconds=600`));
    expect(q).toEqual({ model_id: 'test-asr', seconds: 600, request_fee_usd: 0.05, usage_usd: 0.06, options_usd: 0, total_usd: 0.11, currency: 'USD' });
    const d = await json<Quote>(fetch(`${t.url}/v1/models/test-asr/quote?seconds=600&options=speaker_diarization`));
    expect(d.options_usd).toBe(0.02);
    expect(d.total_usd).toBe(0.13);
  });
  it('bad seconds → 400; unknown option → 400; unknown model → 404', async () => {
    for (const s of ['', 'abc', '-1', 'Infinity']) await expectError(fetch(`${t.url}/v1/models/test-asr/quote?seconds=${s}`), 400, 'invalid_request');
    await expectError(fetch(`${t.url}/v1/models/test-asr/quote`), 400, 'invalid_request');
    await expectError(fetch(`${t.url}/v1/models/test-asr/quote?seconds=1&options=karaoke`), 400, 'invalid_request');
    await expectError(fetch(`${t.url}/v1/models/nope/quote?seconds=1`), 404, 'not_found');
  });
});
