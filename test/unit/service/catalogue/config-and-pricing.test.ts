import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLUSTER_DEFAULT_PRICING, livePricingFile, loadPricingFile, parsePricingFile, withClusterDefault } from '../../../../src-main/service/catalogue/pricing-file.js';
import { resolveConfig } from '../../../../src-main/service/config.js';
import { sanitiseFileName } from '../../../../src-main/service/uploads/multipart.js';
import { logInto } from '../../../helpers/log.js';

const dir = mkdtempSync(join(tmpdir(), 'voxdesk-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('resolveConfig', () => {
  it('fills every default; VOXDESK_DATA_DIR and VOXDESK_API_KEY are read from the environment', () => {
    const c = resolveConfig({}, { VOXDESK_DATA_DIR: dir, VOXDESK_API_KEY: 'vdk_from_env_0123456789abcdef' });
    expect(c).toMatchObject({ host: '127.0.0.1', port: 8750, dataDir: dir, holdSeconds: 240, maxUploadBytes: 499_999_999, pricingFile: null, allowedOrigins: [], serveUi: null, apiKey: 'vdk_from_env_0123456789abcdef' });
  });
  it('uses dataDir/pricing.json when it exists', () => {
    writeFileSync(join(dir, 'pricing.json'), '{}');
    expect(resolveConfig({ dataDir: dir }, {}).pricingFile).toBe(join(dir, 'pricing.json'));
  });
  it('refuses bad values with one clear message', () => {
    expect(() => resolveConfig({ dataDir: dir, port: 70000 }, {})).toThrow(/port 70000/);
    expect(() => resolveConfig({ dataDir: dir, holdSeconds: -1 }, {})).toThrow(/holdSeconds/);
    expect(() => resolveConfig({ dataDir: dir, serveUi: join(dir, 'no-ui') }, {})).toThrow(/index.html/);
  });
});

describe('pricing file', () => {
  it('parses models, options and default; refuses negative or non-numeric prices', () => {
    const p = parsePricingFile({ models: { a: { request_fee_usd: 0.05, per_minute_usd: 0.01, options: { speaker_diarization: { per_minute_usd: 0.002 } } } }, default: { per_minute_usd: 0 } });
    expect(p.models.a).toEqual({ currency: 'USD', request_fee_usd: 0.05, per_minute_usd: 0.01, options: { speaker_diarization: { per_minute_usd: 0.002 } } });
    expect(p.default).toEqual({ currency: 'USD', request_fee_usd: 0, per_minute_usd: 0, options: {} });
    expect(() => parsePricingFile({ models: { a: { per_minute_usd: -1 } } })).toThrow(/per_minute_usd/);
    expect(() => parsePricingFile({ models: { a: { request_fee_usd: '1' } } })).toThrow(/request_fee_usd/);
    expect(() => parsePricingFile([])).toThrow(/object/);
  });

  it('live: an edit applies to the very next read; an edit that does not parse keeps the prices before it, logged once', () => {
    const file = join(dir, 'live-pricing.json');
    writeFileSync(file, JSON.stringify({ models: { a: { request_fee_usd: 0.01 } } }));
    const logged: string[] = [];
    const pricing = livePricingFile(file, loadPricingFile(file), logInto(logged));
    const first = pricing();
    expect(first.models.a!.request_fee_usd).toBe(0.01);
    expect(pricing()).toBe(first);

    writeFileSync(file, JSON.stringify({ models: { a: { request_fee_usd: 0.02 } }, default: { per_minute_usd: 0.5 } }));
    expect(pricing().models.a!.request_fee_usd).toBe(0.02);
    expect(pricing().default!.per_minute_usd).toBe(0.5);

    writeFileSync(file, '{"models": {"a": {"request_fee_usd": ');
    expect(pricing().models.a!.request_fee_usd).toBe(0.02);
    writeFileSync(file, JSON.stringify({ models: { a: { request_fee_usd: -3 } } }));
    expect(pricing().models.a!.request_fee_usd).toBe(0.02);
    expect(pricing().models.a!.request_fee_usd).toBe(0.02);
    expect(logged.filter((m) => m.includes('prices read before stay'))).toHaveLength(2);

    rmSync(file);
    expect(pricing().models.a!.request_fee_usd).toBe(0.02);
    writeFileSync(file, '{}');
    expect(pricing()).toEqual({ models: {}, default: null });
  });
});

describe('a cluster\'s default prices', () => {
  it('charge the spec\'s request fee where the pricing file names no default, and give way to a default it names', () => {
    const none = parsePricingFile({ models: { a: { per_minute_usd: 0.02 } } });
    const made = withClusterDefault(none)();
    expect(made.default).toEqual(CLUSTER_DEFAULT_PRICING);
    expect(made.default!.request_fee_usd).toBe(0.05);
    expect(made.models.a!.per_minute_usd).toBe(0.02);
    const own = parsePricingFile({ default: { request_fee_usd: 0.1, per_minute_usd: 0.01 } });
    expect(withClusterDefault(() => own)().default).toEqual(own.default);
  });
});

describe('sanitiseFileName', () => {
  it('keeps the base name and safe characters only', () => {
    expect(sanitiseFileName('../../etc/passwd')).toBe('passwd');
    expect(sanitiseFileName('C:\\Users\\me\\talk 1.wav')).toBe('talk 1.wav');
    expect(sanitiseFileName('Interview – café.mp3')).toBe('Interview _ café.mp3');
    expect(sanitiseFileName('..')).toBe('upload');
    expect(sanitiseFileName('')).toBe('upload');
  });
});
