/**
 * Splits text into sentences for sentence-by-sentence synthesis (progress, cancellation and live streaming).
 * A sentence ends after . ! ? ; : … (and their CJK forms) followed by whitespace or the end, or at a blank line.
 * Overlong sentences are cut at the last comma or space before MAX_SENTENCE_CHARS so that the first audio of a
 * long paragraph arrives quickly and memory per step stays small.
 */

/** Longest piece handed to an engine at once (characters). */
export const MAX_SENTENCE_CHARS = 300;

const END = /[.!?;:…。！？；：]+["'”’)\]]*(?=\s|$)|[。！？；]+|\n\s*\n/gu;
/** A piece carries speech only with a letter or a digit in it (punctuation, symbols and emoji alone say nothing). */
const SPEAKABLE = /[\p{L}\p{N}]/u;

/** Whether splitSentences finds anything to speak in `text` (checked before a TTS job is created). */
export function hasSpeech(text: string): boolean {
  return SPEAKABLE.test(text);
}

export function splitSentences(text: string, maxChars = MAX_SENTENCE_CHARS): string[] {
  const out: string[] = [];
  let start = 0;
  for (const match of text.matchAll(END)) {
    const end = match.index + match[0].length;
    pushPiece(out, text.slice(start, end), maxChars);
    start = end;
  }
  pushPiece(out, text.slice(start), maxChars);
  return out;
}

function pushPiece(out: string[], piece: string, maxChars: number): void {
  let rest = piece.replace(/\s+/gu, ' ').trim();
  while (rest.length > maxChars) {
    const window = rest.slice(0, maxChars);
    let cut = Math.max(window.lastIndexOf(', '), window.lastIndexOf('、'));
    if (cut < maxChars / 3) cut = window.lastIndexOf(' ');
    if (cut < maxChars / 3) cut = maxChars - 1;
    out.push(rest.slice(0, cut + 1).trim());
    rest = rest.slice(cut + 1).trim();
  }
  // A piece of only punctuation carries no speech.
  if (SPEAKABLE.test(rest)) out.push(rest);
}
