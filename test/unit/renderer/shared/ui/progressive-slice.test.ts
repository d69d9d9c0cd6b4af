/** Slices of progressive rendering (src-renderer/src/shared/ui/progressive-slice.ts). */
import { describe, expect, it } from 'vitest';
import { nextLimit } from '../../../../../src-renderer/src/shared/ui/progressive-slice.js';

describe('nextLimit', () => {
  it('extends by `step` rows of weight 1 and stops at the total', () => {
    expect(nextLimit(0, 50, 12)).toBe(12);
    expect(nextLimit(12, 50, 12)).toBe(24);
    expect(nextLimit(48, 50, 12)).toBe(50);
    expect(nextLimit(50, 50, 12)).toBe(50);
    expect(nextLimit(0, 0, 12)).toBe(0);
  });

  it('weighs rows (words per paragraph) and always makes progress past a heavy row', () => {
    const words = [100, 150, 100, 2000, 10];
    const weight = (i: number) => words[i]!;
    expect(nextLimit(0, words.length, 300, weight)).toBe(2);
    expect(nextLimit(2, words.length, 300, weight)).toBe(3);
    expect(nextLimit(3, words.length, 300, weight)).toBe(4);
    expect(nextLimit(4, words.length, 300, weight)).toBe(5);
  });
});
