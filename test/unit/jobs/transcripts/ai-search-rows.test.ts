/**
 * An AI answer cut into search rows (ai-search-rows.ts): whole lines together up to the row size, a longer line cut
 * at a space, blank lines dropped, and nothing lost or reordered.
 */
import { describe, expect, it } from 'vitest';
import { AI_SEARCH_ROW_CHARS, answerPieces } from '../../../../src-main/jobs/transcripts/ai-search-rows.js';

describe('AI answer search rows', () => {
  it('keeps short lines together and starts a new row when the next line would not fit', () => {
    expect(answerPieces('Summary.\n\n- one\n- two', 1000)).toEqual(['Summary.\n- one\n- two']);
    expect(answerPieces('aaaa\nbbbb\ncccc', 9)).toEqual(['aaaa\nbbbb', 'cccc']);
    expect(answerPieces('   \n\n', 10)).toEqual([]);
  });

  it('cuts a line longer than a row at a space, never losing a word', () => {
    const words = Array.from({ length: 800 }, (_, i) => `word${i}`);
    const pieces = answerPieces(words.join(' '));
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.every((p) => p.length <= AI_SEARCH_ROW_CHARS)).toBe(true);
    expect(pieces.join(' ').split(/\s+/)).toEqual(words);
    // A "word" longer than a row is cut where the row ends.
    expect(answerPieces('x'.repeat(25), 10)).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
  });
});
