/**
 * An account's vocabulary (issue 29.4, docs/transcripts.md#vocabulary): words to favour where a recognizer can be
 * biased (hotwords), and replacements applied to every transcript after recognition, for every engine. The wire
 * shape of `GET`/`PUT /v1/vocabulary`, its checks, and the one rule of a replacement — shared by the service (which
 * applies them as a revision of each new transcript) and the app (which shows them).
 */
import { ApiError } from './errors.js';
import { mustBeString } from './error-messages.js';
import { refuseUnknownFields } from './unknown-fields.js';

export interface Replacement {
  /** What the recognizer writes ("vox desk"): matched as whole words, in any case. */
  from: string;
  /** What it should be ("Voxdesk"). */
  to: string;
}

export interface Vocabulary {
  hotwords: string[];
  replacements: Replacement[];
}

export const MAX_HOTWORDS = 200;
export const MAX_REPLACEMENTS = 500;
/** Characters of one hotword, one `from` or one `to`. */
export const MAX_VOCABULARY_ENTRY_CHARS = 100;
/** All hotwords together, as the recognizers' `hotwords` param takes them (comma-separated, at most 2000). */
export const MAX_HOTWORDS_CHARS = 2000;

export const EMPTY_VOCABULARY: Vocabulary = { hotwords: [], replacements: [] };


// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

function entry(value: unknown, field: string, separators: boolean): string {
  if (typeof value !== 'string') throw new ApiError('invalid_request', mustBeString(field));
  const text = value.replace(/\s+/g, ' ').trim();
  if (text === '' || text.length > MAX_VOCABULARY_ENTRY_CHARS || CONTROL.test(value)) {
    throw new ApiError('invalid_request', `${field} must be 1–${MAX_VOCABULARY_ENTRY_CHARS} characters without control characters`);
  }
  if (separators && /[,:]/.test(text)) throw new ApiError('invalid_request', `${field} must not hold "," or ":" (they separate hotwords and their boosts for the recognizer); give each word or phrase as its own entry`);
  return text;
}


const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A PUT body checked: both lists required, entries trimmed, duplicates (in any case) refused. */
export function parseVocabulary(body: Record<string, unknown>): Vocabulary {
  refuseUnknownFields(body, ['hotwords', 'replacements'], '', 'the vocabulary');
  if (!Array.isArray(body.hotwords) || body.hotwords.length > MAX_HOTWORDS) {
    throw new ApiError('invalid_request', `hotwords must be an array of at most ${MAX_HOTWORDS} words or phrases ([] for none)`);
  }
  if (!Array.isArray(body.replacements) || body.replacements.length > MAX_REPLACEMENTS) {
    throw new ApiError('invalid_request', `replacements must be an array of at most ${MAX_REPLACEMENTS} {"from", "to"} ([] for none)`);
  }
  const hotwords = body.hotwords.map((h: unknown, i) => entry(h, `hotwords[${i}]`, true));
  const seen = new Set<string>();
  for (const [i, word] of hotwords.entries()) {
    if (seen.has(word.toLowerCase())) throw new ApiError('invalid_request', `hotwords[${i}] ("${word}") is given twice`);
    seen.add(word.toLowerCase());
  }
  if (hotwords.join(', ').length > MAX_HOTWORDS_CHARS) {
    throw new ApiError('invalid_request', `the hotwords together take more than ${MAX_HOTWORDS_CHARS} characters; keep the ones that matter most`);
  }
  const froms = new Set<string>();
  const replacements = body.replacements.map((r: unknown, i): Replacement => {
    if (!isObject(r)) throw new ApiError('invalid_request', `replacements[${i}] must be an object {"from", "to"}`);
    refuseUnknownFields(r, ['from', 'to'], `replacements[${i}].`, 'a replacement');
    const from = entry(r.from, `replacements[${i}].from`, false);
    const to = entry(r.to, `replacements[${i}].to`, false);
    if (froms.has(from.toLowerCase())) throw new ApiError('invalid_request', `replacements[${i}].from ("${from}") is given twice`);
    froms.add(from.toLowerCase());
    return { from, to };
  });
  return { hotwords, replacements };
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * One expression for every replacement, longest `from` first (so "vox desk app" wins over "vox desk"): whole words
 * only (letters, digits and marks of any script count as word characters), any case, any run of spaces between words.
 */
function matcher(replacements: readonly Replacement[]): RegExp | null {
  if (replacements.length === 0) return null;
  const sorted = [...replacements].sort((a, b) => b.from.length - a.from.length);
  const alternatives = sorted.map((r) => r.from.split(' ').map(escape).join('\\s+'));
  return new RegExp(`(?<![\\p{L}\\p{N}\\p{M}])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}\\p{M}])`, 'giu');
}

/**
 * `text` with every replacement made. Case: a `to` with any capital is written as given ("Voxdesk", "GPU"); an
 * all-lower-case `to` follows the match — capitalised at a capitalised match ("Uh-huh" → "Yes" for `to` "yes"), upper
 * case at an upper-case one.
 */
export function applyReplacements(text: string, replacements: readonly Replacement[]): string {
  const re = matcher(replacements);
  if (!re) return text;
  const byFrom = new Map(replacements.map((r) => [r.from.toLowerCase().replace(/\s+/g, ' '), r.to]));
  return text.replace(re, (match) => {
    const to = byFrom.get(match.toLowerCase().replace(/\s+/g, ' ')) ?? match;
    if (to !== to.toLowerCase()) return to;
    if (match.length > 1 && match === match.toUpperCase() && match !== match.toLowerCase()) return to.toUpperCase();
    const first = match.charAt(0);
    return first !== first.toLowerCase() ? to.charAt(0).toUpperCase() + to.slice(1) : to;
  });
}
