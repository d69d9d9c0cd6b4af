/** Filler words left out of text for reading, per language, punctuation and capitals kept right. */
import { describe, expect, it } from 'vitest';
import { fillersOf, isFiller, removeFillers } from '../../../src-main/common/filler-words.js';

describe('removeFillers', () => {
  const en = fillersOf('en');
  it('drops the fillers and keeps the punctuation and capitals of the sentence', () => {
    expect(removeFillers('so, um, the budget is, uh, ready.', en)).toBe('so, the budget is, ready.');
    expect(removeFillers('Um, the plan works.', en)).toBe('The plan works.');
    expect(removeFillers('It works, um.', en)).toBe('It works.');
    expect(removeFillers('um uh', en)).toBe('');
  });
  it('keeps words that only look like fillers, and words with a meaning', () => {
    expect(removeFillers('the umbrella, like, you know, works', en)).toBe('the umbrella, like, you know, works');
  });
  it('per language, from its code or name, English when it has no list', () => {
    expect(removeFillers('Äh, das ist ähm gut.', fillersOf('de-DE'))).toBe('Das ist gut.');
    expect(removeFillers('eh, vale', fillersOf('spanish'))).toBe('vale');
    expect(isFiller('Um,', fillersOf('xx'))).toBe(true);
    expect(isFiller('äh', fillersOf(null))).toBe(false);
  });
});
