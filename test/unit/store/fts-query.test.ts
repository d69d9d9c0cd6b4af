/** What people type becomes an FTS5 expression of quoted words: phrases and prefixes kept, operators and syntax gone. */
import { describe, expect, it } from 'vitest';
import { toFtsQuery } from '../../../src-main/store/fts-query.js';

describe('toFtsQuery', () => {
  it.each([
    ['budget', '"budget"'],
    ['Budget meeting', '"Budget" "meeting"'],
    ['"next year" budget', '"next year" "budget"'],
    ['budg*', '"budg"*'],
    ['"next ye"*', '"next ye"*'],
    ['*', null],
    ['* budget', '"budget"'],
    ['NEAR(a b)', '"a" "b"'],
    ['AND OR NOT', null],
    ['not and or', '"not" "and" "or"'],
    ['body:budget', '"budget"'],
    ['10:30', '"10" "30"'],
    ['"unbalanced budget', '"unbalanced" "budget"'],
    ['budget"', '"budget"'],
    ['""', null],
    ['🦄', null],
    ['🦄budget🦄', '"budget"'],
    ["o'brien", '"o" "brien"'],
    ['Renée café', '"Renée" "café"'],
    ['東京', '"東京"'],
    ['-budget ^x (y)', '"budget" "x" "y"'],
  ])('%j → %j', (input, match) => {
    expect(toFtsQuery(input).match).toBe(match);
  });

  it('counts every word, and keeps at most 32 in the expression', () => {
    const query = toFtsQuery(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '));
    expect(query.terms).toBe(40);
    expect(query.match!.split(' ')).toHaveLength(32);
  });
});
