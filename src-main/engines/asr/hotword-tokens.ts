/**
 * Hotwords in the form sherpa-onnx reads them. Without a BPE model file (which NeMo and most sherpa-onnx exports do
 * not ship), sherpa-onnx takes each phrase as a sequence of the model's own tokens separated by spaces and skips any
 * it cannot find (models/tiny: "Cannot find ID for token Q"). A person writes words, so each word is spelled here
 * with the model's tokens.txt: the longest word-initial piece ("▁the") first, then the longest pieces after it, in
 * the letter case the vocabulary uses. A phrase that cannot be spelled fails the job with invalid_params naming it:
 * biasing towards part of it would not be what was asked for.
 */
import { readFileSync } from 'node:fs';
import { JobError } from '../../common/errors.js';

/** SentencePiece's word-start mark. */
const WORD_START = '▁';

interface Vocabulary {
  pieces: Set<string>;
  longest: number;
  upper: boolean;
}

const vocabularies = new Map<string, Vocabulary>();

function vocabulary(tokensPath: string): Vocabulary {
  let found = vocabularies.get(tokensPath);
  if (found) return found;
  const pieces = new Set<string>();
  let lower = 0;
  let upper = 0;
  for (const line of readFileSync(tokensPath, 'utf8').split('\n')) {
    const token = line.replace(/\s+-?\d+\s*$/, '');
    if (token === '' || /^<.*>$/.test(token)) continue;
    pieces.add(token);
    if (/[a-z]/.test(token)) lower++;
    if (/[A-Z]/.test(token)) upper++;
  }
  found = { pieces, longest: Math.max(0, ...[...pieces].map((p) => p.length)), upper: upper > lower };
  vocabularies.set(tokensPath, found);
  return found;
}

/** The pieces that spell `word` (greedy, longest first), or null when some letter has none. */
function spell(word: string, vocab: Vocabulary): string[] | null {
  const pieces: string[] = [];
  let at = 0;
  // The word's start: "▁word…" as one piece when the vocabulary has it, else the bare mark then the letters.
  for (let length = Math.min(word.length, vocab.longest - 1); length >= 1; length--) {
    if (vocab.pieces.has(WORD_START + word.slice(0, length))) {
      pieces.push(WORD_START + word.slice(0, length));
      at = length;
      break;
    }
  }
  if (at === 0 && vocab.pieces.has(WORD_START)) pieces.push(WORD_START);
  while (at < word.length) {
    let length = Math.min(word.length - at, vocab.longest);
    while (length > 0 && !vocab.pieces.has(word.slice(at, at + length))) length--;
    if (length === 0) return null;
    pieces.push(word.slice(at, at + length));
    at += length;
  }
  return pieces;
}

/**
 * The phrases of an account's vocabulary this model can spell, and those it cannot: a vocabulary is the account's,
 * not one job's request, so a word one model's tokens lack is left out for that model (and said in the worker's log)
 * rather than failing every job on it.
 */
export function spellable(phrases: readonly string[], tokensPath: string): { kept: string[]; dropped: string[] } {
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const phrase of phrases) {
    try {
      hotwordLines([phrase], tokensPath);
      kept.push(phrase);
    } catch {
      dropped.push(phrase);
    }
  }
  return { kept, dropped };
}

/**
 * `phrases` ("Ada Lovelace", "Voxdesk :3") as sherpa-onnx hotword lines: tokens separated by spaces, the phrase's
 * own boost kept (" :3"). Throws invalid_params for a phrase the model's tokens cannot spell.
 */
export function hotwordLines(phrases: readonly string[], tokensPath: string): string[] {
  const vocab = vocabulary(tokensPath);
  return phrases.map((phrase) => {
    const boost = /\s+:(\d+(?:\.\d+)?)$/.exec(phrase);
    const text = (boost ? phrase.slice(0, boost.index) : phrase).trim();
    const words = (vocab.upper ? text.toUpperCase() : text.toLowerCase()).split(/\s+/).filter(Boolean);
    const tokens: string[] = [];
    for (const word of words) {
      const pieces = spell(word, vocab);
      if (!pieces) throw new JobError('invalid_params', `the hotword "${phrase}" cannot be spelled with this model's tokens (it has no piece for part of "${word}"): leave it out or write it in the letters the model knows`);
      tokens.push(...pieces);
    }
    if (tokens.length === 0) throw new JobError('invalid_params', `the hotword "${phrase}" has no letters`);
    return `${tokens.join(' ')}${boost ? ` :${Number(boost[1]).toFixed(1)}` : ''}`;
  });
}
