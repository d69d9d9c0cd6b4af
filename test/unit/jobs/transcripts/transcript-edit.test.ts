/** Word times after an edit: kept words keep theirs; changed and added words share the time they take over. */
import { describe, expect, it } from 'vitest';
import { parseTranscriptPatch, retimeWords } from '../../../../src-main/jobs/transcripts/transcript-edit.js';
import { originalRevision } from '../../../../src-main/jobs/transcripts/transcript-original.js';

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

describe('originalRevision on long transcripts', () => {
  /** The rule, the plain way: every word against every segment (what revision 0 did before, in O(words × segments)). */
  function naive(segments: { start: number; end: number }[], words: { start: number; end: number }[]): number[] {
    return words.map((word) => {
      const mid = (word.start + word.end) / 2;
      let best = -1;
      let distance = Infinity;
      segments.forEach((segment, i) => {
        const d = mid < segment.start ? segment.start - mid : mid > segment.end ? mid - segment.end : 0;
        if (d < distance) [best, distance] = [i, d];
      });
      return best;
    });
  }

  it('gives each word to the same segment as comparing it with every segment would, overlaps and gaps included', () => {
    let seed = 7;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 50; round += 1) {
      const segments = Array.from({ length: 1 + Math.floor(random() * 40) }, () => {
        const start = Math.round(random() * 1000) / 10;
        return { start, end: start + Math.round(random() * 80) / 10, text: 'a b', speaker: null };
      });
      const words = Array.from({ length: Math.floor(random() * 200) }, (_, i) => {
        const start = Math.round(random() * 1100) / 10;
        return { word: `w${i}`, start, end: start + Math.round(random() * 10) / 10 };
      });
      const body = originalRevision({ text: 'x', segments: segments.map((s, id) => ({ id, ...s, speaker: undefined })), words }, []);
      const expected = naive(segments, words);
      const got = words.map((w) => body.segments.findIndex((s) => s.words.some((x) => x.word === w.word)));
      expect(got).toEqual(expected);
    }
  });

  it('assigns 72,000 words to 6,000 segments in a blink (revision 0 of a ten-hour transcript)', () => {
    const segments = Array.from({ length: 6000 }, (_, i) => ({ id: i, start: i * 6, end: i * 6 + 5.5, text: 'twelve words of an ordinary sentence in a long meeting here now' }));
    const words = segments.flatMap((s) => s.text.split(' ').map((word, k) => ({ word, start: s.start + k * 0.45, end: s.start + k * 0.45 + 0.4 })));
    const body = originalRevision({ text: 'x', segments, words }, []);
    expect(body.segments.every((s) => s.words.length === 12)).toBe(true);
  });
});

describe('speaker keys a transcript edit takes', () => {
  it('takes engine keys and a meeting\'s (words joined by single spaces), and refuses anything else with the reason', () => {
    for (const key of ['SPEAKER_0', 'You', 'Other side', 'Other side 2', 'spk.a-b']) {
      expect(parseTranscriptPatch({ base_revision: 0, speakers: { [key]: 'Anna' } }).speakers).toEqual({ [key]: 'Anna' });
    }
    for (const key of ['', ' You', 'Other  side', 'Other side ', 'bad key!', 'x'.repeat(65)]) {
      expect(() => parseTranscriptPatch({ base_revision: 0, speakers: { [key]: 'Anna' } }), JSON.stringify(key)).toThrow(/must be a speaker key/);
    }
  });
});
