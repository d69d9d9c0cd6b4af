import { describe, expect, it } from 'vitest';
import type { JobResult } from '../../../src-main/common/api-types.js';
import {
  buildCues,
  CUE_LIMITS,
  timestamp,
  toJson,
  toSrt,
  toVtt,
  wrapLines,
} from '../../../src-main/common/transcript-formats.js';

const S0 = 'SPEAKER_0';
const S1 = 'SPEAKER_1';
const dialogue: JobResult = {
  text: 'Hello there. General Kenobi! You are a bold one.',
  language: 'en',
  duration: 9.5,
  segments: [
    { id: 0, start: 0.5, end: 2.0, text: 'Hello there.', speaker: S0 },
    { id: 1, start: 3.0, end: 9.2, text: 'General Kenobi! You are a bold one.', speaker: S1 },
  ],
  words: [
    { word: 'Hello', start: 0.5, end: 0.9, speaker: S0 },
    { word: 'there.', start: 1.0, end: 2.0, speaker: S0 },
    { word: 'General', start: 3.0, end: 3.5, speaker: S1 },
    { word: 'Kenobi!', start: 3.6, end: 4.4, speaker: S1 },
    { word: 'You', start: 6.5, end: 6.8, speaker: S1 },
    { word: 'are', start: 6.9, end: 7.1, speaker: S1 },
    { word: 'a', start: 7.2, end: 7.3, speaker: S1 },
    { word: 'bold', start: 7.4, end: 8.0, speaker: S1 },
    { word: 'one.', start: 8.1, end: 9.2, speaker: S1 },
  ],
};

describe('timestamps', () => {
  it('formats SRT and WebVTT times', () => {
    expect(timestamp(1, ',')).toBe('00:00:01,000');
    expect(timestamp(1, '.')).toBe('00:00:01.000');
    expect(timestamp(3661.2506, ',')).toBe('01:01:01,251');
    expect(timestamp(0.0004, '.')).toBe('00:00:00.000');
    expect(timestamp(-3, ',')).toBe('00:00:00,000');
  });
});

describe('SRT', () => {
  it('splits cues at speaker changes and pauses, with speaker labels (golden)', () => {
    expect(toSrt(dialogue)).toBe(
      [
        '1\n00:00:00,500 --> 00:00:02,000\n[SPEAKER_0] Hello there.\n',
        '2\n00:00:03,000 --> 00:00:04,400\n[SPEAKER_1] General Kenobi!\n',
        '3\n00:00:06,500 --> 00:00:09,200\n[SPEAKER_1] You are a bold one.\n',
      ].join('\n'),
    );
  });

  it('splits a long segment without word times into ≤ 2 lines of ≤ 42 characters and ≤ 7 s (golden)', () => {
    const long: JobResult = {
      text: '',
      segments: [
        {
          id: 0,
          start: 3661.25,
          end: 3681.25,
          text: 'the quick brown fox jumps over the lazy dog and then keeps running through the forest until the sun goes down behind the hills far away',
        },
      ],
    };
    expect(toSrt(long)).toBe(
      [
        '1\n01:01:01,250 --> 01:01:07,721\nthe quick brown fox\njumps over the lazy dog\n',
        '2\n01:01:07,721 --> 01:01:13,897\nand then keeps running through the forest\n',
        '3\n01:01:13,897 --> 01:01:20,515\nuntil the sun goes down\nbehind the hills far\n',
        '4\n01:01:20,515 --> 01:01:21,250\naway\n',
      ].join('\n'),
    );
    for (const cue of buildCues(long)) {
      expect(cue.lines.length).toBeLessThanOrEqual(CUE_LIMITS.lines);
      for (const line of cue.lines) expect(line.length).toBeLessThanOrEqual(CUE_LIMITS.lineChars);
      expect(cue.end - cue.start).toBeLessThanOrEqual(CUE_LIMITS.seconds);
    }
  });

  it('counts the speaker label in max_chars_per_line and max_lines, as a subtitle editor does', () => {
    const named: JobResult = {
      text: '',
      segments: [
        {
          id: 0,
          start: 0,
          end: 6,
          text: 'we should move the budget review to thursday morning please',
          speaker: 'Alexandra Papadopoulou',
        },
      ],
    };
    const srt = toSrt(named, { lineChars: 32, lines: 2 });
    const cues = srt.trim().split('\n\n');
    expect(cues[0]).toContain('[Alexandra Papadopoulou]');
    for (const cue of cues) {
      const lines = cue.split('\n').slice(2);
      expect(lines.length).toBeLessThanOrEqual(2);
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(32);
    }
    // Every word is still there, in order, once.
    const words = cues.flatMap((cue) => cue.split('\n').slice(2).join(' ').replace('[Alexandra Papadopoulou]', '').split(/\s+/).filter(Boolean));
    expect(words.join(' ')).toBe(named.segments![0]!.text);
    // A label that leaves no room for a word on the lines allowed is left out rather than filling a cue alone.
    const oneShortLine = toSrt(named, { lineChars: 20, lines: 1 }).trim().split('\n\n');
    for (const cue of oneShortLine) {
      const lines = cue.split('\n').slice(2);
      expect(lines).toHaveLength(1);
      expect(lines[0]!.length).toBeLessThanOrEqual(20);
      expect(lines[0]).not.toContain('[');
    }
    // WebVTT's voice tag is markup, not text: its lines hold the words alone and may use the whole width.
    for (const cue of buildCues(named, { lineChars: 32, lines: 2 })) {
      for (const line of cue.lines) expect(line.length).toBeLessThanOrEqual(32);
      expect(cue.lines.join(' ')).not.toContain('[');
    }
  });

  it('text without segments becomes one cue over the duration', () => {
    expect(toSrt({ text: 'just text', duration: 2 })).toBe('1\n00:00:00,000 --> 00:00:02,000\njust text\n');
  });

  it('an empty transcript gives an empty file', () => {
    expect(toSrt({ text: '' })).toBe('');
    expect(toVtt({ text: '' })).toBe('WEBVTT\n');
  });
});

describe('WebVTT', () => {
  it('uses voice tags for speakers and escapes markup (golden)', () => {
    expect(toVtt(dialogue)).toBe(
      [
        'WEBVTT\n',
        '00:00:00.500 --> 00:00:02.000\n<v SPEAKER_0>Hello there.\n',
        '00:00:03.000 --> 00:00:04.400\n<v SPEAKER_1>General Kenobi!\n',
        '00:00:06.500 --> 00:00:09.200\n<v SPEAKER_1>You are a bold one.\n',
      ].join('\n'),
    );
    expect(toVtt({ text: 'a <b> & c', segments: [{ id: 0, start: 0, end: 1, text: 'a <b> & c' }] })).toBe(
      'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\na &lt;b&gt; &amp; c\n',
    );
  });
});

describe('speaker names that look like markup or timing (trust review 2, item 11)', () => {
  const hostile = { text: 'hi', segments: [{ id: 0, start: 0, end: 1, text: 'hi', speaker: 'x --> 00:00:09.000 y <b>&' }] };
  it('WebVTT escapes the voice name, so it neither ends the tag nor forms a timing line', () => {
    const vtt = toVtt(hostile);
    expect(vtt).toBe('WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n<v x --&gt; 00:00:09.000 y &lt;b&gt;&amp;>hi\n');
    expect(vtt.split('\n').filter((line) => line.includes('-->'))).toHaveLength(1);
  });
  it('SRT keeps the label on one line with no timing arrow in it', () => {
    const srt = toSrt({ ...hostile, segments: [{ ...hostile.segments[0]!, speaker: 'a\r\n\r\n2\nb --> c' }] });
    expect(srt.split('\n').filter((line) => line.includes('-->'))).toHaveLength(1);
    expect(srt).toContain('[a 2 b -> c] hi');
  });
});

describe('JSON', () => {
  it('the transcript fields without artifacts', () => {
    const parsed = JSON.parse(toJson({ ...dialogue, artifacts: [] })) as JobResult;
    expect(parsed).toEqual(dialogue);
  });
});

describe('wrapLines', () => {
  it('balances two lines', () => {
    expect(wrapLines('one two three four five six seven eight nine ten eleven'.split(' '))).toEqual([
      'one two three four five six',
      'seven eight nine ten eleven',
    ]);
    expect(wrapLines(['short'])).toEqual(['short']);
  });
});
