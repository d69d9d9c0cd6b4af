import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, textNestsPast, valueNestsPast } from '../../../../src-main/service/http/json-depth.js';

const nested = (n: number): string => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

describe('textNestsPast', () => {
  it('finds the first level past the bound and the top-level field it is in', () => {
    expect(textNestsPast(`{"model":"m","params":${nested(40)}}`, MAX_JSON_DEPTH)).toEqual({ depth: MAX_JSON_DEPTH + 1, field: 'params' });
    expect(textNestsPast('['.repeat(100) + ']'.repeat(100), 5)).toEqual({ depth: 6, field: null });
  });
  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(textNestsPast(`{"text":"${'[{'.repeat(100)} \\" [[[["}`, 3)).toBeNull();
    expect(textNestsPast(`{"a\\"b":[[1]]}`, 2)).toEqual({ depth: 3, field: 'a"b' });
  });
  it('accepts what nests up to the bound', () => {
    expect(textNestsPast(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBeNull();
    expect(textNestsPast(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).not.toBeNull();
  });
  it('scans 4 million levels without recursion', () => {
    expect(textNestsPast('['.repeat(4_000_000), MAX_JSON_DEPTH)?.depth).toBe(MAX_JSON_DEPTH + 1);
  });
});

describe('valueNestsPast', () => {
  it('names the path of the first value nested too deep, without recursing', () => {
    const deep = JSON.parse(nested(5000)) as unknown;
    expect(valueNestsPast(deep, 3)).toBe('a.a.a');
    expect(valueNestsPast({ list: [{ x: [[1]] }] }, 3)).toBe('list[0].x');
    expect(valueNestsPast({ a: { b: 1 }, c: [1, 2] }, 2)).toBeNull();
    expect(valueNestsPast('text', 0)).toBeNull();
  });
});
