/**
 * What a person types into a search box, turned into an FTS5 query that cannot be a syntax error. FTS5's query
 * language (AND/OR/NOT, NEAR(…), column filters, `^`, parentheses) is not offered: the text is read as plain words,
 * each quoted, all of them required. Two forms are kept because people use them: "a quoted phrase" (the words in
 * that order) and `prefix*` (any word starting so). Words are runs of letters, digits and combining marks — what the
 * index's unicode61 tokenizer keeps — so punctuation, emoji and operators (`*` alone, `NEAR(`, `-`, `:`) fall away.
 */
import { MAX_SEARCH_TERMS } from '../common/limits.js';

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
/** Upper-case words FTS5 reads as operators: dropped outside quotes (lower case they are ordinary words). */
const OPERATORS = new Set(['AND', 'OR', 'NOT', 'NEAR']);
/** `column:` in front of a word (FTS5's column filter): the prefix is dropped, the word kept. */
const COLUMN_FILTER = /^[\p{L}_]+:(?=.)/u;

/** One part of a query: a word, or the words of a quoted phrase; `prefix` when its last word ends in `*`. */
export interface QueryPhrase {
  words: string[];
  prefix: boolean;
}

export interface FtsQuery {
  /** The MATCH expression, or null when the text holds no word at all (nothing can match). */
  match: string | null;
  /** How many words the query holds. */
  terms: number;
  /** The parts the expression was built from (at most MAX_SEARCH_TERMS), for highlighting. */
  phrases: QueryPhrase[];
}

function words(text: string): string[] {
  return text.match(WORD) ?? [];
}

/**
 * A prefix of one character (`a*`) would stand for a good part of the language; it is read as the word itself.
 * Prefixes of 2 and 3 characters have an index of their own (migration 011), longer ones are few words each.
 */
const MIN_PREFIX_CHARS = 2;

export function toFtsQuery(text: string): FtsQuery {
  const parts: string[] = [];
  const phrases: QueryPhrase[] = [];
  let terms = 0;
  const add = (list: string[], prefix: boolean): void => {
    if (parts.length >= MAX_SEARCH_TERMS) return;
    const star = prefix && [...list[list.length - 1]!].length >= MIN_PREFIX_CHARS;
    parts.push(`"${list.join(' ')}"${star ? '*' : ''}`);
    phrases.push({ words: list, prefix: star });
  };
  const addWords = (list: string[], prefix: boolean): void => {
    list.forEach((word, i) => {
      terms++;
      add([word], prefix && i === list.length - 1);
    });
  };
  const addPlain = (chunk: string): void => {
    for (const token of chunk.split(/\s+/)) {
      const bare = token.replace(COLUMN_FILTER, '');
      addWords(words(bare).filter((word) => !OPERATORS.has(word)), /[\p{L}\p{N}\p{M}]\*+$/u.test(bare));
    }
  };
  let rest = text;
  for (;;) {
    const open = rest.indexOf('"');
    const close = open < 0 ? -1 : rest.indexOf('"', open + 1);
    if (close < 0) break; // no phrase left (an unbalanced quote is read as plain words)
    addPlain(rest.slice(0, open));
    const phrase = words(rest.slice(open + 1, close));
    const prefix = rest[close + 1] === '*';
    if (phrase.length > 0) {
      terms += phrase.length;
      add(phrase, prefix);
    }
    rest = rest.slice(close + (prefix ? 2 : 1));
  }
  addPlain(rest.replaceAll('"', ' '));
  return { match: parts.length > 0 ? parts.join(' ') : null, terms, phrases };
}
