import { describe, expect, it } from 'vitest';
import { OnlineSpeakers } from '../../../../src-main/engines/capture/online-speakers.js';

describe('provisional speakers of a capture\'s other side', () => {
  it('numbers a new voice when it is like no speaker so far, and gives a known voice its number', () => {
    const speakers = new OnlineSpeakers(0.5);
    expect(speakers.assign([1, 0, 0])).toBe(1);
    expect(speakers.assign([0, 1, 0])).toBe(2);
    expect(speakers.assign([0.9, 0.2, 0])).toBe(1);
    expect(speakers.assign([0.1, 3, 0.2])).toBe(2);
    expect(speakers.assign([0, 0, 1])).toBe(3);
  });

  it('compares with the mean of a speaker\'s utterances, each scaled to length 1 (a loud one weighs no more)', () => {
    const speakers = new OnlineSpeakers(0.8);
    expect(speakers.assign([100, 0])).toBe(1);
    expect(speakers.assign([1, 1])).toBe(2);
    // Nearer the first speaker's single voice than the second's, and above the threshold for it.
    expect(speakers.assign([1, 0.3])).toBe(1);
  });

  it('stops numbering at the most speakers it tells apart: past them an utterance joins the most similar', () => {
    const speakers = new OnlineSpeakers(0.99, 2);
    expect(speakers.assign([1, 0, 0])).toBe(1);
    expect(speakers.assign([0, 1, 0])).toBe(2);
    expect(speakers.assign([0.1, 0, 1])).toBe(1);
  });
});
