/**
 * Filler words ("uh", "um") left out of text made for reading (issue 29.4): an export asked with
 * `remove_fillers=true`. Never applied to what is stored — the revisions keep every word the recognizer heard. Per
 * language (the transcript's, else English): only sounds that are never a word of their own there, so nothing with a
 * meaning is removed ("like", "you know" stay).
 */

const FILLERS: Record<string, readonly string[]> = {
  en: ['uh', 'uhh', 'um', 'umm', 'uhm', 'er', 'erm', 'ah', 'hmm', 'mm', 'mhm'],
  de: ['äh', 'ähm', 'öh', 'öhm', 'hm', 'hmm', 'mhm'],
  es: ['eh', 'em', 'ehm', 'mmm', 'hmm', 'este…'],
  fr: ['euh', 'heu', 'hum', 'bah'],
};

/** The filler words of a language ("en", "en-GB", "german" → its base code), English when it has none here. */
export function fillersOf(language: string | null | undefined): ReadonlySet<string> {
  const base = (language ?? 'en').toLowerCase().split(/[-_]/)[0]!;
  const named: Record<string, string> = { english: 'en', german: 'de', spanish: 'es', french: 'fr' };
  return new Set(FILLERS[named[base] ?? base] ?? FILLERS.en);
}

/** A word as a filler test sees it: lower case, without the punctuation around it. */
const bare = (word: string): string => word.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}…]+$/gu, '');

/** Whether one recognised word is a filler (punctuation around it ignored: "Um," is one). */
export function isFiller(word: string, fillers: ReadonlySet<string>): boolean {
  return fillers.has(bare(word));
}

/**
 * `text` without its filler words. Punctuation a filler carried moves to the word before it ("so, um, yes" →
 * "so, yes"), and a sentence that began with one starts with a capital again ("Um, the plan" → "The plan").
 */
export function removeFillers(text: string, fillers: ReadonlySet<string>): string {
  const words = text.split(/\s+/).filter(Boolean);
  const out: string[] = [];
  let capitalise = false;
  for (const word of words) {
    if (isFiller(word, fillers)) {
      if (out.length === 0) capitalise = word.charAt(0) !== word.charAt(0).toLowerCase();
      const tail = /[.!?]+$/.exec(word)?.[0];
      if (tail && out.length > 0 && !/[.!?]$/.test(out[out.length - 1]!)) out[out.length - 1] = out[out.length - 1]!.replace(/[,;:]+$/, '') + tail;
      continue;
    }
    out.push(capitalise ? word.charAt(0).toUpperCase() + word.slice(1) : word);
    capitalise = false;
  }
  return out.join(' ');
}
