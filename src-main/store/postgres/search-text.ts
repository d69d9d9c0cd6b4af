/**
 * Library search's text rules on PostgreSQL, made to match SQLite's FTS5 index (migration 011: unicode61, diacritics
 * removed, any case) rather than PostgreSQL's own text parser, which would read `3.5`, `e-mail` or an address as
 * tokens of their own and so find other rows than the desktop does:
 * - A row's document is built here: its words (runs of letters, digits and combining marks, as fts-query.ts and the
 *   snippets read them), folded (decomposed, marks removed, lower case), each at its position, as a `tsvector`
 *   literal; its length in words is kept beside it for ranking.
 * - A query is the MATCH expression fts-query.ts builds (`"word" "two words" "pre"*`), read back into its phrases and
 *   made a `tsquery` of the same meaning: every phrase required (`&`), a phrase's words in order (`<->`), a starred
 *   phrase's last word a prefix (`:*`).
 * - Rank is FTS5's bm25 (k1 = 1.2, b = 0.75, the same IDF floor) computed here from the same counts FTS5 uses: rows in
 *   the index, their total length, the rows holding each phrase, and each phrase's occurrences in the row. Equal
 *   inputs give the order FTS5 gives, lower (more negative) first.
 */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;
/** A query part as fts-query.ts writes it: a quoted phrase, starred when its last word is a prefix. */
const PHRASE = /"([^"]*)"(\*?)/gy;
const SPACE = / */y;

/** PostgreSQL keeps positions up to 16383 in a tsvector (later ones count as 16383). */
const MAX_POSITION = 16383;
/** The longest lexeme a tsvector takes is 2047 bytes; a longer "word" is kept cut (it can only be found by prefix). */
const MAX_LEXEME_BYTES = 2046;

export interface SearchPhrase {
  /** Folded words, in order. */
  words: string[];
  /** The last word is a prefix. */
  prefix: boolean;
}

export function fold(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The row's words, folded, in order (what FTS5's unicode61 tokenizer with remove_diacritics 2 makes of it). */
export function tokens(body: string): string[] {
  const out: string[] = [];
  for (const match of body.matchAll(WORD)) {
    const token = fold(match[0]);
    if (token !== '') out.push(token);
  }
  return out;
}

function cut(lexeme: string): string {
  if (Buffer.byteLength(lexeme) <= MAX_LEXEME_BYTES) return lexeme;
  let out = '';
  for (const ch of lexeme) {
    if (Buffer.byteLength(out + ch) > MAX_LEXEME_BYTES) break;
    out += ch;
  }
  return out;
}

const quote = (lexeme: string): string => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** The row's document: a tsvector literal of its folded words at their positions, and how many words it holds. */
export function searchDocument(body: string): { tsv: string; length: number } {
  const words = tokens(body);
  const positions = new Map<string, number[]>();
  words.forEach((word, i) => {
    const lexeme = cut(word);
    let list = positions.get(lexeme);
    if (!list) positions.set(lexeme, (list = []));
    if (list.length < 256) list.push(Math.min(i + 1, MAX_POSITION));
  });
  const parts: string[] = [];
  for (const [lexeme, list] of positions) parts.push(`${quote(lexeme)}:${[...new Set(list)].join(',')}`);
  return { tsv: parts.join(' '), length: words.length };
}

/** The phrases of a MATCH expression built by fts-query.ts; throws for any other text. */
export function parseMatch(match: string): SearchPhrase[] {
  const phrases: SearchPhrase[] = [];
  PHRASE.lastIndex = 0;
  let at = 0;
  while (at < match.length) {
    SPACE.lastIndex = at;
    SPACE.exec(match);
    at = SPACE.lastIndex;
    if (at >= match.length) break;
    PHRASE.lastIndex = at;
    const found = PHRASE.exec(match);
    if (!found) throw new Error(`not a search expression made by fts-query.ts: ${JSON.stringify(match)}`);
    phrases.push({ words: tokens(found[1]!), prefix: found[2] === '*' });
    at = PHRASE.lastIndex;
  }
  if (phrases.length === 0) throw new Error('an empty search expression');
  return phrases;
}

/** Whether no row can match: a phrase left without words (a word of combining marks only folds to nothing). */
export function matchesNothing(phrases: readonly SearchPhrase[]): boolean {
  return phrases.some((p) => p.words.length === 0);
}

/** One phrase as a tsquery: its words in order (it must hold one at least: see matchesNothing). */
export function phraseQuery(phrase: SearchPhrase): string {
  return phrase.words.map((word, i) => `${quote(cut(word))}${phrase.prefix && i === phrase.words.length - 1 ? ':*' : ''}`).join(' <-> ');
}

/** Every phrase required. */
export function matchQuery(phrases: readonly SearchPhrase[]): string {
  return phrases.map((p) => `(${phraseQuery(p)})`).join(' & ');
}

/** How many times `phrase` occurs in `words` (overlapping occurrences count, as FTS5 counts instances). */
export function occurrences(words: readonly string[], phrase: SearchPhrase): number {
  const n = phrase.words.length;
  if (n === 0) return 0;
  let count = 0;
  for (let i = 0; i + n <= words.length; i++) {
    let fits = true;
    for (let k = 0; k < n && fits; k++) {
      const word = words[i + k]!;
      const wanted = phrase.words[k]!;
      fits = phrase.prefix && k === n - 1 ? word.startsWith(wanted) : word === wanted;
    }
    if (fits) count++;
  }
  return count;
}

/** What bm25 needs besides the row: the index's size and how many rows hold each phrase. */
export interface RankStats {
  rows: number;
  totalWords: number;
  rowsWithPhrase: readonly number[];
}

const K1 = 1.2;
const B = 0.75;

/** Per phrase, FTS5's IDF: log.info((N − n + 0.5) / (n + 0.5)), at least 1e-6. */
export function idf(stats: RankStats): number[] {
  return stats.rowsWithPhrase.map((hits) => {
    const value = Math.log((stats.rows - hits + 0.5) / (hits + 0.5));
    return value <= 0 ? 1e-6 : value;
  });
}

/** FTS5's bm25 of one row (negative; lower ranks first), computed in FTS5's order of operations. */
export function bm25(words: readonly string[], phrases: readonly SearchPhrase[], weights: readonly number[], avgdl: number): number {
  const D = words.length;
  let score = 0;
  phrases.forEach((phrase, i) => {
    const f = occurrences(words, phrase);
    score += weights[i]! * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * D) / avgdl)));
  });
  return -1.0 * score;
}
