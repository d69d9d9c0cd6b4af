import { describe, expect, it } from 'vitest';
import { wordsFromTokens } from '../../../../src-main/engines/asr/token-words.js';

describe('wordsFromTokens', () => {
  it('groups SentencePiece tokens into words with absolute times', () => {
    const words = wordsFromTokens({ tokens: ['▁he', 'llo', '▁wor', 'ld'], timestamps: [0.2, 0.32, 0.8, 0.96] }, 10, 12);
    expect(words).toEqual([
      { word: 'hello', start: 10.2, end: 10.42 },
      { word: 'world', start: 10.8, end: 11.06 },
    ]);
  });

  it('uses token durations (TDT) and clamps to the segment end', () => {
    const words = wordsFromTokens({ tokens: ['▁yes', '▁no'], timestamps: [0, 0.5], durations: [0.3, 2] }, 0, 1);
    expect(words).toEqual([
      { word: 'yes', start: 0, end: 0.3 },
      { word: 'no', start: 0.5, end: 1 },
    ]);
  });

  it('treats a lone "▁" token as a word boundary and ignores missing timestamps', () => {
    expect(wordsFromTokens({ tokens: ['a', '▁', 'b', 'c'], timestamps: [0, 0.1, 0.2, 0.3] }, 0, 5).map((w) => w.word)).toEqual(['a', 'bc']);
    expect(wordsFromTokens({ tokens: ['▁a'], timestamps: [] }, 0, 5)).toEqual([]);
  });

  it('makes each Chinese or Japanese token a word of its own (no spaces to tell words apart)', () => {
    const words = wordsFromTokens({ tokens: ['我', '们', '▁the', 'n', '好'], timestamps: [0, 0.06, 0.12, 0.18, 0.24] }, 0, 1);
    expect(words.map((w) => w.word)).toEqual(['我', '们', 'then', '好']);
  });
});
