/**
 * Library search's text rules on PostgreSQL (search-text.ts): documents and queries built as SQLite's FTS5 index reads
 * them, and bm25 as FTS5 computes it.
 */
import { describe, expect, it } from 'vitest';
import { toFtsQuery } from '../../../../src-main/store/fts-query.js';
import { bm25, idf, matchesNothing, matchQuery, occurrences, parseMatch, searchDocument, tokens } from '../../../../src-main/store/postgres/search-text.js';

describe('PostgreSQL search text', () => {
  it('folds words as unicode61 with diacritics removed does, and splits where it does', () => {
    expect(tokens('Café au LAIT — 3.5 € e-mail someone@example.com naïve_Zürich')).toEqual(['cafe', 'au', 'lait', '3', '5', 'e', 'mail', 'someone', 'example', 'com', 'naive', 'zurich']);
    expect(tokens('')).toEqual([]);
  });

  it('makes a tsvector literal of positions, quoting what PostgreSQL would read otherwise', () => {
    expect(searchDocument('the cat saw the Cat')).toEqual({ tsv: "'the':1,4 'cat':2,5 'saw':3", length: 5 });
    expect(searchDocument('')).toEqual({ tsv: '', length: 0 });
    const long = searchDocument('é'.repeat(3000));
    expect(Buffer.byteLength(/'([^']*)'/.exec(long.tsv)![1]!)).toBeLessThanOrEqual(2046);
  });

  it('reads back the expressions fts-query.ts builds, and nothing else', () => {
    const phrases = parseMatch(toFtsQuery('"Quick brown" fox* café').match!);
    expect(phrases).toEqual([
      { words: ['quick', 'brown'], prefix: false },
      { words: ['fox'], prefix: true },
      { words: ['cafe'], prefix: false },
    ]);
    expect(matchQuery(phrases)).toBe("('quick' <-> 'brown') & ('fox':*) & ('cafe')");
    expect(() => parseMatch('NEAR(a b)')).toThrow(/not a search expression/);
    expect(() => parseMatch('"a" OR "b"')).toThrow(/not a search expression/);
    expect(() => parseMatch('   ')).toThrow(/empty/);
    expect(matchesNothing(parseMatch('"\u0301"'))).toBe(true);
  });

  it('counts phrase occurrences as FTS5 counts instances, prefixes included', () => {
    const words = tokens('a a a b ab abc');
    expect(occurrences(words, { words: ['a', 'a'], prefix: false })).toBe(2);
    expect(occurrences(words, { words: ['ab'], prefix: true })).toBe(2);
    expect(occurrences(words, { words: ['b', 'ab'], prefix: false })).toBe(1);
    expect(occurrences(words, { words: [], prefix: false })).toBe(0);
  });

  it('scores as bm25: more occurrences and shorter rows rank first; a phrase in most rows weighs almost nothing', () => {
    const weights = idf({ rows: 10, totalWords: 50, rowsWithPhrase: [2, 9] });
    expect(weights[0]).toBeCloseTo(Math.log(8.5 / 2.5), 12);
    expect(weights[1]).toBe(1e-6);
    const phrase = [{ words: ['x'], prefix: false }];
    const w = idf({ rows: 10, totalWords: 50, rowsWithPhrase: [2] });
    expect(bm25(['x', 'x', 'y'], phrase, w, 5)).toBeLessThan(bm25(['x', 'y', 'y'], phrase, w, 5));
    expect(bm25(['x'], phrase, w, 5)).toBeLessThan(bm25(['x', 'y', 'y', 'y'], phrase, w, 5));
    expect(bm25(['y'], phrase, w, 5)).toBe(-0);
  });
});
