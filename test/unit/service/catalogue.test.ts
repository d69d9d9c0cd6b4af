import { describe, expect, it } from 'vitest';
import type { ModelDefinition, ModelSource } from '../../../src-main/engines/model-definition.js';
import { Catalogue } from '../../../src-main/service/catalogue/catalogue.js';
import { EMPTY_PRICING_FILE } from '../../../src-main/service/catalogue/pricing-file.js';
import { TEST_MODELS } from '../../helpers/service.js';

const def = (id: string, patch: Partial<ModelDefinition> = {}): ModelDefinition => ({ ...TEST_MODELS[0]!, pricing: undefined, id, ...patch });
const source = (name: string, rows: ModelDefinition[]): ModelSource => ({ name, list: () => rows });

describe('Catalogue', () => {
  it('merges sources in order: the first source wins an id collision', () => {
    const c = new Catalogue([source('a', [def('x', { name: 'from a' })]), source('b', [def('x', { name: 'from b' }), def('y')])], EMPTY_PRICING_FILE);
    expect(c.list().map((m) => [m.id, m.name])).toEqual([
      ['x', 'from a'],
      ['y', 'Test test-asr'],
    ]);
  });
  it('a source that throws is logged and skipped; the others still list', () => {
    const logged: string[] = [];
    const broken: ModelSource = { name: 'broken', list: () => { throw new Error('no disk'); } };
    const c = new Catalogue([broken, source('ok', [def('z')])], EMPTY_PRICING_FILE, (m) => logged.push(m));
    expect(c.list().map((m) => m.id)).toEqual(['z']);
    expect(logged.join('\n')).toContain('broken failed');
  });
  it('on-device models are free by default; remote models keep their own price', () => {
    const remotePrice = { currency: 'USD' as const, request_fee_usd: 0.05, per_minute_usd: 0.003, options: {} };
    const c = new Catalogue([source('s', [def('local'), def('hosted', { provider: 'remote', engine: 'remote', pricing: remotePrice })])], EMPTY_PRICING_FILE);
    expect(c.get('local')!.pricing).toMatchObject({ request_fee_usd: 0, per_minute_usd: 0 });
    expect(c.get('hosted')!.pricing).toEqual(remotePrice);
  });
  it('unavailable rows are hidden unless asked for, and an available row has no reason', () => {
    const c = new Catalogue([source('s', [def('on'), def('off', { status: 'unavailable', reason: 'not downloaded' })])], EMPTY_PRICING_FILE);
    expect(c.list().map((m) => m.id)).toEqual(['on']);
    expect(c.list({ includeUnavailable: true }).find((m) => m.id === 'off')!.reason).toBe('not downloaded');
    expect(c.get('on')!.reason).toBeNull();
  });
});
