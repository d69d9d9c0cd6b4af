/** Text helpers of the Speak tab. */
import { textSeconds } from '$common/pricing.js';

/**
 * Speaking time a text is priced at before it is spoken: the service's own estimate (common/pricing.ts
 * textSeconds: code points at 15 a second, counted on the text as sent), 0 for a blank text.
 */
export function estimateSpeechSeconds(text: string): number {
  return text.trim() ? textSeconds(text) : 0;
}

/** Batch mode: one item per non-empty line. */
export function splitBatchLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
}
