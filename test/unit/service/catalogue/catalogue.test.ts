import { describe, expect, it } from 'vitest';
import type { ModelDefinition, ModelSource } from '../../../../src-main/engines/model-definition.js';
import { Catalogue } from '../../../../src-main/service/catalogue/catalogue.js';
import { EMPTY_PRICING_FILE } from '../../../../src-main/service/catalogue/pricing-file.js';
import { TEST_MODELS } from '../../../helpers/service.js';
import { logInto } from '../../../helpers/log.js';

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
    const c = new Catalogue([broken, source('ok', [def('z')])], EMPTY_PRICING_FILE, logInto(logged));
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

/** A source whose rows and version the test sets, counting how often it is asked for its list. */
function versioned(name: string, rows: ModelDefinition[]) {
  const s = { name, rows, version: 0, lists: 0 };
  const source: ModelSource = {
    name,
    list: () => {
      s.lists += 1;
      return s.rows;
    },
    version: () => s.version,
  };
  return { s, source };
}

describe('Catalogue keeps what its sources answered', () => {
  it('asks a source again only when its version moves, and the change shows in the very next read', () => {
    const a = versioned('a', [def('x')]);
    const b = versioned('b', [def('y')]);
    const c = new Catalogue([a.source, b.source], EMPTY_PRICING_FILE);
    expect(c.resolveModel('x')!.status).toBe('available');
    for (let i = 0; i < 5; i++) c.resolveModel('x');
    c.list();
    c.definitions();
    expect([a.s.lists, b.s.lists]).toEqual([1, 1]);

    a.s.rows = [def('x', { status: 'unavailable', reason: 'deleted' }), def('x2')];
    a.s.version += 1;
    expect(c.resolveModel('x')!.status).toBe('unavailable');
    expect(c.get('x')!.reason).toBe('deleted');
    expect(c.list().map((m) => m.id)).toEqual(['x2', 'y']);
    expect([a.s.lists, b.s.lists]).toEqual([2, 1]);

    b.s.rows = [];
    b.s.version += 1;
    expect(c.resolveModel('y')).toBeUndefined();
    expect(c.definitions().map((d) => d.id)).toEqual(['x', 'x2']);
  });

  it('a source without version() is asked on every read, so a change to it shows at once', () => {
    let rows = [def('x')];
    let lists = 0;
    const c = new Catalogue([{ name: 'live', list: () => (lists++, rows) }, versioned('fixed', [def('z')]).source], EMPTY_PRICING_FILE);
    expect(c.resolveModel('x')).toBeDefined();
    rows = [def('w')];
    expect(c.resolveModel('x')).toBeUndefined();
    expect(c.resolveForJobs('w')!.id).toBe('w');
    expect(lists).toBe(3);
  });

  it('a source that failed is asked again on the next read, and its rows appear once it answers', () => {
    let broken = true;
    const flaky: ModelSource = {
      name: 'flaky',
      list: () => {
        if (broken) throw new Error('disk not mounted');
        return [def('late')];
      },
      version: () => 7,
    };
    const logged: string[] = [];
    const c = new Catalogue([flaky, versioned('ok', [def('z')]).source], EMPTY_PRICING_FILE, logInto(logged));
    expect(c.resolveModel('late')).toBeUndefined();
    expect(c.resolveModel('z')).toBeDefined();
    expect(logged.filter((m) => m.includes('flaky failed'))).toHaveLength(2);
    broken = false;
    expect(c.resolveModel('late')).toBeDefined();
    expect(c.resolveModel('late')).toBeDefined();
    expect(logged.filter((m) => m.includes('flaky failed'))).toHaveLength(2);
  });

  it('records and billed definitions follow the prices: a new pricing file shows in the next read', () => {
    const price = (fee: number) => ({ currency: 'USD' as const, request_fee_usd: fee, per_minute_usd: 0, options: {} });
    let pricing = { models: { x: price(0.01) }, default: null };
    const c = new Catalogue([versioned('a', [def('x')]).source], () => pricing);
    expect(c.get('x')!.pricing.request_fee_usd).toBe(0.01);
    expect(c.resolveForJobs('x')!.pricing!.request_fee_usd).toBe(0.01);
    expect(c.resolveForJobs('x')).toBe(c.resolveForJobs('x'));
    pricing = { models: { x: price(0.02) }, default: null };
    expect(c.list()[0]!.pricing.request_fee_usd).toBe(0.02);
    expect(c.resolveForJobs('x')!.pricing!.request_fee_usd).toBe(0.02);
    expect(c.pricingFor(c.resolveModel('x')!).request_fee_usd).toBe(0.02);
  });
});
