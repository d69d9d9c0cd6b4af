/**
 * Punctuation and casing for recognizers that give neither (PocketSphinx, NeMo CTC exports): the text of each
 * recognised segment goes through sherpa-onnx's OfflinePunctuation with the installed CT-Transformer model (the
 * model manager's `punctuation` support package), which puts a mark after each word it predicts one for and always
 * ends the text with a full stop or a question mark. That model writes the Chinese marks (，。？、), so for text in
 * Latin script they become , . ? , with a space after; sentence starts are capitalised (the model gives no casing);
 * and each word of the segment takes the mark that follows it, so `words` and `text` agree. A segment that already
 * has sentence punctuation (a recognizer that gives some after all) is left as it is. One model per worker process.
 */
import type { TranscriptWord } from '../../common/api-types.js';
import { JobError } from '../../common/errors.js';
import { loadSherpa } from './sherpa-native.js';

interface SherpaPunctuation {
  addPunct(text: string): string;
}

let loaded: { path: string; model: SherpaPunctuation } | undefined;

function model(path: string): SherpaPunctuation {
  if (loaded?.path !== path) {
    const sherpa = loadSherpa() as unknown as { OfflinePunctuation: new (config: Record<string, unknown>) => SherpaPunctuation };
    try {
      loaded = { path, model: new sherpa.OfflinePunctuation({ model: { ctTransformer: path, numThreads: 1, debug: 0 } }) };
    } catch (cause) {
      throw new JobError('engine_failed', `the punctuation model could not be loaded: ${(cause as Error).message}`, { cause });
    }
  }
  return loaded.model;
}

const FULL_WIDTH: Record<string, string> = { '，': ',', '。': '.', '？': '?', '、': ',' };

/** A recognizer's own sentence punctuation: then the text is left alone. */
const PUNCTUATED = /[.?!。？！]/u;

/** The model's output made to read as Latin-script text: ASCII marks, a space after each, sentences capitalised. */
export function latinPunctuation(text: string): string {
  const marked = text.replace(/[，。？、]/gu, (mark) => `${FULL_WIDTH[mark]} `).replace(/\s+/g, ' ').trim();
  return marked.replace(/(^|[.?!]\s+)(\p{Ll})/gu, (_, before: string, letter: string) => before + letter.toUpperCase());
}

/** The segment's text with punctuation and casing (unchanged when empty or already punctuated). */
export function punctuate(modelPath: string, text: string): string {
  const plain = text.trim();
  if (plain === '' || PUNCTUATED.test(plain)) return text;
  return latinPunctuation(model(modelPath).addPunct(plain.toLowerCase()));
}

/**
 * The segment's words spelled as in the punctuated text (with the mark after each and its casing), when the text has
 * as many words as the recognizer gave; otherwise the words as they were.
 */
export function punctuatedWords(words: readonly TranscriptWord[], punctuated: string): TranscriptWord[] {
  const spelled = punctuated.split(/\s+/).filter(Boolean);
  if (spelled.length !== words.length) return [...words];
  return words.map((word, i) => ({ ...word, word: spelled[i]! }));
}
