import { describe, expect, it } from 'vitest';
import type { TranscriptWord } from '../../../../src-main/common/api-types.js';
import { endsSentence, MAX_SENTENCE_CHARS, MAX_SENTENCE_SECONDS, splitIntoSentences } from '../../../../src-main/jobs/transcripts/sentence-segments.js';
import type { TranscriptResult } from '../../../../src-main/engines/asr/transcript.js';

/** Words of `text` one after another from `start`, each `each` seconds long, with `gaps[i]` seconds before word i. */
function timedWords(text: string, start: number, each = 0.3, gaps: Record<number, number> = {}): TranscriptWord[] {
  let at = start;
  return text.split(' ').map((word, i) => {
    at += gaps[i] ?? 0;
    const w = { word, start: Math.round(at * 1000) / 1000, end: Math.round((at + each) * 1000) / 1000 };
    at += each;
    return w;
  });
}

function result(segments: { start: number; end: number; text: string; speaker?: string; flags?: ['repetition'] }[], words: TranscriptWord[]): TranscriptResult {
  return { text: segments.map((s) => s.text).join(' '), language: 'en', duration: 100, segments: segments.map((s, id) => ({ id, ...s })), words };
}

describe('sentence-sized segments', () => {
  it('cuts a long engine segment after each sentence, keeping word times, flags and speaker', () => {
    const text = 'And so my fellow Americans. Ask not what your country can do for you! Ask what you can do?';
    const words = timedWords(text, 2);
    const split = splitIntoSentences(result([{ start: 1.5, end: 10, text, speaker: 'SPEAKER_1', flags: ['repetition'] }], words));
    expect(split.segments!.map((s) => s.text)).toEqual(['And so my fellow Americans.', 'Ask not what your country can do for you!', 'Ask what you can do?']);
    expect(split.segments!.map((s) => s.id)).toEqual([0, 1, 2]);
    // The first keeps the segment's start, the last its end; between them the words' own times.
    expect(split.segments![0]!.start).toBe(1.5);
    expect(split.segments![0]!.end).toBe(words[4]!.end);
    expect(split.segments![1]!.start).toBe(words[5]!.start);
    expect(split.segments![2]!.end).toBe(10);
    expect(split.segments!.every((s) => s.speaker === 'SPEAKER_1' && s.flags?.[0] === 'repetition')).toBe(true);
    expect(split.words).toBe(words);
    expect(split.text).toBe(text);
  });

  it('does not cut after an abbreviation or an initial', () => {
    const text = 'Dr. Smith met J. Jones on Main St. yesterday.';
    const split = splitIntoSentences(result([{ start: 0, end: 5, text }], timedWords(text, 0)));
    expect(split.segments!.map((s) => s.text)).toEqual([text]);
    expect(endsSentence('etc.')).toBe(true);
    expect(endsSentence('"Done."')).toBe(true);
    expect(endsSentence('e.g.')).toBe(false);
  });

  it('cuts unpunctuated speech at a pause of a second or more, not at shorter ones', () => {
    const text = 'so we went home then we slept';
    const words = timedWords(text, 0, 0.3, { 3: 1.2, 5: 0.5 });
    const split = splitIntoSentences(result([{ start: 0, end: 5, text }], words));
    expect(split.segments!.map((s) => s.text)).toEqual(['so we went', 'home then we slept']);
  });

  it('cuts where the speaker changes between words', () => {
    const text = 'yes I agree no you do not';
    const words = timedWords(text, 0).map((w, i) => ({ ...w, speaker: i < 3 ? 'A' : 'B' }));
    const split = splitIntoSentences(result([{ start: 0, end: 3, text, speaker: 'A' }], words));
    expect(split.segments!.map((s) => [s.text, s.speaker])).toEqual([['yes I agree', 'A'], ['no you do not', 'B']]);
  });

  it('keeps every piece within the maximum length, cutting at a comma when there is one, never inside a word', () => {
    const clause = 'the committee discussed the budget for the coming year at length';
    const text = Array.from({ length: 6 }, () => clause).join(', ');
    const words = timedWords(text, 0, 0.35);
    const split = splitIntoSentences(result([{ start: 0, end: words.at(-1)!.end, text }], words));
    expect(split.segments!.length).toBeGreaterThan(1);
    for (const s of split.segments!) {
      expect(s.end - s.start).toBeLessThanOrEqual(MAX_SENTENCE_SECONDS);
      expect([...s.text].length).toBeLessThanOrEqual(MAX_SENTENCE_CHARS);
      expect(s.text.endsWith(',') || s === split.segments!.at(-1)).toBe(true);
    }
    expect(split.segments!.map((s) => s.text).join(' ')).toBe(text);
    const giant = 'x'.repeat(300);
    const alone = splitIntoSentences(result([{ start: 0, end: 20, text: `a ${giant} b` }], timedWords(`a ${giant} b`, 0, 6)));
    expect(alone.segments!.map((s) => s.text)).toEqual(['a', giant, 'b']);
  });

  it('without word times, cuts by characters and spreads the segment over them', () => {
    const text = 'One two. Three four five six seven eight.';
    const split = splitIntoSentences(result([{ start: 10, end: 20, text }], []));
    expect(split.segments!.map((s) => s.text)).toEqual(['One two.', 'Three four five six seven eight.']);
    // "One two." is 7 of the 34 characters of its words.
    expect(split.segments![0]!.end).toBe(12.059);
    expect(split.segments![1]!.start).toBe(12.059);
  });

  it('cuts Chinese after its full stops without adding spaces', () => {
    const text = '你好。我们走吧！';
    const split = splitIntoSentences(result([{ start: 0, end: 4, text }], []));
    expect(split.segments!.map((s) => s.text)).toEqual(['你好。', '我们走吧！']);
  });

  it('takes only its own words when segments overlap (a meeting\'s two sides at once)', () => {
    const you = 'I think so. Yes I do.';
    const other = 'Really? Tell me more.';
    const words = [...timedWords(you, 0, 0.5), ...timedWords(other, 0.2, 0.5)];
    const split = splitIntoSentences(result([{ start: 0, end: 3, text: you, speaker: 'You' }, { start: 0.2, end: 2.2, text: other, speaker: 'Other side' }], words));
    expect(split.segments!.map((s) => [s.text, s.speaker])).toEqual([
      ['I think so.', 'You'],
      ['Yes I do.', 'You'],
      ['Really?', 'Other side'],
      ['Tell me more.', 'Other side'],
    ]);
    // "Yes" is said at 1.5 s: its own word's time, not the other side's.
    expect(split.segments![1]!.start).toBe(1.5);
  });

  it('gives the same segments for the same input (a resumed job equals an uninterrupted one)', () => {
    const text = 'First sentence here. Second one there.';
    const input = result([{ start: 0, end: 4, text }], timedWords(text, 0));
    expect(splitIntoSentences(input)).toEqual(splitIntoSentences(structuredClone(input)));
  });
});
