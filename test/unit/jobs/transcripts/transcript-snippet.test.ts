/** Search snippets: matched words marked the way the index matches them, HTML escaped, long text cut around the match. */
import { describe, expect, it } from 'vitest';
import { highlight } from '../../../../src-main/jobs/transcripts/transcript-snippet.js';
import { toFtsQuery } from '../../../../src-main/store/fts-query.js';

const snippet = (body: string, q: string): string => highlight(body, toFtsQuery(q).phrases);

describe('highlight', () => {
  it('marks words in any case and accent, prefixes, and phrases as one highlight', () => {
    expect(snippet('The Café opened at noon.', 'cafe')).toBe('The <mark>Café</mark> opened at noon.');
    expect(snippet('Budgets and budgeting.', 'budget*')).toBe('<mark>Budgets</mark> and <mark>budgeting</mark>.');
    expect(snippet('It opened at noon, at noon.', '"at noon"')).toBe('It opened <mark>at noon</mark>, <mark>at noon</mark>.');
    expect(snippet('at dawn, noon at', '"at noon"')).toBe('at dawn, noon at');
  });
  it('escapes HTML around the marks', () => {
    expect(snippet('<b>fish</b> & "chips"', 'fish')).toBe('&lt;b&gt;<mark>fish</mark>&lt;/b&gt; &amp; &quot;chips&quot;');
  });
  it('cuts long text to the words around the first match', () => {
    const body = Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ');
    expect(snippet(body, 'w30')).toBe(`…${Array.from({ length: 24 }, (_, i) => (i === 6 ? '<mark>w30</mark>' : `w${24 + i}`)).join(' ')}…`);
    expect(snippet(body, 'w1').startsWith('w0 <mark>w1</mark> w2')).toBe(true);
  });
});
