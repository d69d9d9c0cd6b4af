/** Word times after an edit: kept words keep theirs; changed and added words share the time they take over. */
import { describe, expect, it } from 'vitest';
import { retimeWords } from '../../../src-main/jobs/transcript-edit.js';
import { originalRevision } from '../../../src-main/jobs/transcript-original.js';

const segment = { start: 10, end: 14 };
const old = [
  { word: 'the', start: 10, end: 10.5 },
  { word: 'cat', start: 10.6, end: 11 },
  { word: 'sat', start: 11.5, end: 12 },
  { word: 'down', start: 12.2, end: 13 },
];

describe('retimeWords', () => {
  it('keeps every time when the text is the same', () => {
    expect(retimeWords(segment, old, 'the cat sat down')).toEqual(old);
  });
  it('a replaced word takes the replaced word’s times', () => {
    expect(retimeWords(segment, old, 'the dog sat down')[1]).toEqual({ word: 'dog', start: 10.6, end: 11 });
  });
  it('two words replacing one share its time by length', () => {
    const words = retimeWords(segment, old, 'the big cat sat down'.replace('big cat', 'tabby kitten'));
    expect(words.map((w) => w.word)).toEqual(['the', 'tabby', 'kitten', 'sat', 'down']);
    expect(words[1]).toEqual({ word: 'tabby', start: 10.6, end: 10.782 });
    expect(words[2]).toEqual({ word: 'kitten', start: 10.782, end: 11 });
  });
  it('an inserted word fills the gap between its neighbours', () => {
    expect(retimeWords(segment, old, 'the cat then sat down')[2]).toEqual({ word: 'then', start: 11, end: 11.5 });
  });
  it('words added at the ends fill the time to the segment’s edges', () => {
    const words = retimeWords(segment, old, 'so the cat sat down again');
    expect(words[0]).toEqual({ word: 'so', start: 10, end: 10 });
    expect(words[5]).toEqual({ word: 'again', start: 13, end: 14 });
  });
  it('deleting words leaves the others as they were', () => {
    expect(retimeWords(segment, old, 'the cat down')).toEqual([old[0], old[1], old[3]]);
  });
  it('a segment without words spreads the new text over itself', () => {
    expect(retimeWords(segment, [], 'ab cd')).toEqual([
      { word: 'ab', start: 10, end: 12 },
      { word: 'cd', start: 12, end: 14 },
    ]);
  });
});

describe('originalRevision', () => {
  it('falls back to the text as one segment when there are neither segments nor rows', () => {
    expect(originalRevision({ text: 'hello there', duration: 2 }, [])).toEqual({
      speakers: {},
      segments: [{ index: 0, start: 0, end: 2, text: 'hello there', speaker: null, words: [{ word: 'hello', start: 0, end: 1 }, { word: 'there', start: 1, end: 2 }] }],
    });
  });
  it('is empty for an empty transcription', () => {
    expect(originalRevision({ text: '' }, [])).toEqual({ speakers: {}, segments: [] });
  });
});
