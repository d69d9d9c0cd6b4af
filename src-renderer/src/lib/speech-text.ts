/** Text helpers of the Speak tab. */

/** Rough speaking time for a price quote: ~15 characters per second (the service's own estimate rate). */
export const CHARS_PER_SECOND = 15;

export function estimateSpeechSeconds(text: string): number {
  const chars = text.trim().length;
  return chars ? chars / CHARS_PER_SECOND : 0;
}

/** Batch mode: one item per non-empty line. */
export function splitBatchLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
}
