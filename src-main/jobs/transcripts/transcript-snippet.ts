/**
 * The snippet of a search hit, made here rather than by FTS5's snippet(): that function reads the matched terms'
 * whole position lists again for every hit, which for a common word or a short prefix cost seconds a page. The rule
 * is the index's own (unicode61, diacritics removed, any case): a word matches a query word when they fold to the
 * same text, or starts with it for a prefix; a phrase matches where its words follow one another.
 */
import type { QueryPhrase } from '../../store/fts-query.js';

/** Words shown around the first match (about two subtitle lines either side). */
export const SNIPPET_WORDS = 24;
const BEFORE = 6;
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

function fold(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]!);
}

interface MatchedTokens {
  tokens: { start: number; end: number; folded: string }[];
  marked: boolean[];
}

function matchTokens(body: string, phrases: readonly QueryPhrase[]): MatchedTokens {
  const tokens = [...body.matchAll(WORD)].map((m) => ({ start: m.index, end: m.index + m[0].length, folded: fold(m[0]) }));
  const wanted = phrases.map((p) => ({ words: p.words.map(fold), prefix: p.prefix }));
  const marked = new Array<boolean>(tokens.length).fill(false);
  for (let i = 0; i < tokens.length; i++) {
    for (const phrase of wanted) {
      const n = phrase.words.length;
      const fits = phrase.words.every((word, k) => {
        const token = tokens[i + k]?.folded;
        return token !== undefined && (phrase.prefix && k === n - 1 ? token.startsWith(word) : token === word);
      });
      if (fits) for (let k = 0; k < n; k++) marked[i + k] = true;
    }
  }
  return { tokens, marked };
}

/**
 * Where the first match in `body` is (code-unit offsets from its first matched word's start to the end of the run
 * of matched words that follows it), or null when nothing matches: the search hit's word and its time.
 */
export function firstMatch(body: string, phrases: readonly QueryPhrase[]): { from: number; to: number } | null {
  const { tokens, marked } = matchTokens(body, phrases);
  const first = marked.indexOf(true);
  if (first < 0) return null;
  let last = first;
  while (marked[last + 1]) last += 1;
  return { from: tokens[first]!.start, to: tokens[last]!.end };
}

/** HTML-safe text of `body` around its first match, each matched word in <mark>…</mark>, cuts shown as …. */
export function highlight(body: string, phrases: readonly QueryPhrase[]): string {
  const { tokens, marked } = matchTokens(body, phrases);
  const first = Math.max(0, marked.indexOf(true));
  const from = tokens.length <= SNIPPET_WORDS ? 0 : Math.max(0, Math.min(first - BEFORE, tokens.length - SNIPPET_WORDS));
  const to = Math.min(tokens.length, from + SNIPPET_WORDS); // tokens [from, to)
  let out = from > 0 ? '…' : '';
  let at = from > 0 ? tokens[from]!.start : 0;
  for (let i = from; i < to; i++) {
    const token = tokens[i]!;
    out += escapeHtml(body.slice(at, token.start));
    const word = escapeHtml(body.slice(token.start, token.end));
    out += marked[i] ? `<mark>${word}</mark>` : word;
    at = token.end;
  }
  out += to < tokens.length ? `${escapeHtml(body.slice(at, tokens[to - 1] ? tokens[to - 1]!.end : at))}…` : escapeHtml(body.slice(at));
  return out.replace(/<\/mark>(\s*)<mark>/g, '$1'); // a matched phrase reads as one highlight
}
