/**
 * The one definition of a text's length that every limit uses: Unicode code points (what a person counts as
 * characters far more often than UTF-16 code units do: an emoji such as 😀 is one code point but two UTF-16 units).
 * The request check, the TTS worker, the live session, text pricing, the catalogue's `limits.max_text_chars` and
 * the renderer all count with this function, so a text accepted by one is never refused by another.
 * Pure (no Node imports): the renderer imports it as `$common/text-length.js`.
 */

/** Unicode code points in `text` (a lone surrogate counts as one). */
export function textLength(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low surrogate is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/** Longest text (in code points, see textLength) when a model's catalogue record sets no `limits.max_text_chars`. */
export const DEFAULT_MAX_TEXT_CHARS = 5000;

/** What `limits.max_text_chars` counts, in words a client can read (catalogue docs, error messages). */
export const TEXT_LENGTH_UNIT = 'Unicode code points';

/** The refusal message shared by every place that checks a text's length. */
export function textTooLongMessage(field: string, length: number, max: number, modelId?: string): string {
  const who = modelId ? `model ${modelId}` : 'this model';
  return `${field} has ${length} characters (${TEXT_LENGTH_UNIT}); ${who} accepts at most ${max}`;
}
