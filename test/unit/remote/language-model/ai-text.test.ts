import { describe, expect, it } from 'vitest';
import type { RevisionSegment } from '../../../../src-main/common/transcript-types.js';
import { parseAiRequest } from '../../../../src-main/remote/language-model/ai-actions.js';
import { clock, partBudget, splitLines, transcriptLines } from '../../../../src-main/remote/language-model/ai-chunks.js';
import { checkCitations } from '../../../../src-main/remote/language-model/ai-citations.js';
import { cleanUpPatches } from '../../../../src-main/remote/language-model/ai-runner.js';
import { normaliseBaseUrl } from '../../../../src-main/remote/language-model/language-model-settings.js';

const seg = (index: number, start: number, end: number, text: string): RevisionSegment => ({ index, start, end, text, speaker: null, words: [] });
const SEGMENTS = [seg(0, 0.4, 4.2, 'and so my fellow americans'), seg(1, 4.2, 7.9, 'um ask not what'), seg(2, 8, 11, ''), seg(3, 3725.5, 3730, 'an hour later')];

describe('transcript lines and parts', () => {
  it('prefix each spoken segment with [mm:ss] (minutes past 59 in long recordings), or [n] for clean-up', () => {
    expect(transcriptLines(SEGMENTS, 'summary')).toEqual(['[00:00] and so my fellow americans', '[00:04] um ask not what', '[62:05] an hour later']);
    expect(transcriptLines(SEGMENTS, 'clean_up')).toEqual(['[0] and so my fellow americans', '[1] um ask not what', '[3] an hour later']);
    expect(clock(7199.9)).toBe('119:59');
  });

  it('split whole lines into parts within the budget, in order', () => {
    const lines = Array.from({ length: 50 }, (_, i) => `[00:${String(i).padStart(2, '0')}] ${'word '.repeat(10)}`);
    const parts = splitLines(lines, 60);
    expect(parts.flat()).toEqual(lines);
    for (const part of parts) expect(part.join('\n').length / 4).toBeLessThanOrEqual(60 + part.length);
    expect(splitLines(['x'.repeat(1000)], 10)).toEqual([['x'.repeat(1000)]]);
  });

  it('leave room for a whole answer when it is as long as the part (translate, clean-up)', () => {
    expect(partBudget('translate', 4096)).toBeLessThan(partBudget('summary', 4096));
    expect(partBudget('summary', 4096)).toBe(Math.floor((4096 - 600) * 0.75));
  });
});

describe('cited times', () => {
  it('stand when they are a segment start, move to the start of the segment they fall in, vanish outside', () => {
    const { text, citations } = checkCitations('Intro [00:00], then [00:06] and [00:09] and [95:00] and [1:02:05].', SEGMENTS);
    expect(text).toBe('Intro [00:00], then [00:04] and and and [62:05].');
    expect(citations).toEqual([
      { time: '00:00', seconds: 0.4, segment_index: 0 },
      { time: '00:04', seconds: 4.2, segment_index: 1 },
      { time: '62:05', seconds: 3725.5, segment_index: 3 },
    ]);
  });
});

describe('clean-up answers', () => {
  it('become patches of the segments whose text changed, ignoring unknown indexes and junk lines', () => {
    const patches = cleanUpPatches('[0] And so, my fellow Americans,\n[1] Ask not what\n[2] invented\n[9] nope\nchatter\n[3] an hour later', SEGMENTS);
    expect(patches).toEqual([
      { index: 0, text: 'And so, my fellow Americans,' },
      { index: 1, text: 'Ask not what' },
      { index: 2, text: 'invented' },
    ]);
  });
});

describe('request bodies', () => {
  it('take each action with its own fields only', () => {
    expect(parseAiRequest({ action: 'translate', language: ' German ' })).toEqual({ action: 'translate', language: 'German', question: null });
    expect(parseAiRequest({ action: 'ask', question: 'Who?' })).toEqual({ action: 'ask', language: null, question: 'Who?' });
    expect(() => parseAiRequest({ action: 'translate', language: 'de; DROP' })).toThrow(/language/);
    expect(() => parseAiRequest({ action: 'ask', question: 'x'.repeat(2001) })).toThrow(/2000/);
    expect(() => parseAiRequest({})).toThrow(/action must be one of summary, action_items, chapters, clean_up, translate, ask/);
  });
});

describe('base URLs', () => {
  it('are http(s), without credentials, cut back to the base when a route was pasted', () => {
    expect(normaliseBaseUrl('http://127.0.0.1:11434/v1/')).toBe('http://127.0.0.1:11434/v1');
    expect(normaliseBaseUrl('http://localhost:1234/v1/chat/completions')).toBe('http://localhost:1234/v1');
    expect(() => normaliseBaseUrl('http://user:pw@host/v1')).toThrow(/api_key/);
    expect(() => normaliseBaseUrl('file:///etc')).toThrow(/http/);
  });
});
