import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasRepetition, segmentFlags } from '../../../../src-main/engines/asr/segment-guardrails.js';
import { SHARED } from '../../../helpers/system.js';

/** The reference transcripts in ../shared: real speech, which must raise no doubt. */
function references(): string[] {
  return ['audio/hifitts-6097/refs.tsv', 'audio/multilingual/refs.tsv'].flatMap((file) =>
    readFileSync(join(SHARED, file), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => line.split('\t').at(-1)!),
  );
}

describe('doubtful-segment checks', () => {
  it('mark a phrase or a word said over and over', () => {
    expect(hasRepetition('thank you thank you thank you thank you')).toBe(true);
    expect(hasRepetition('So. So. So. So. So. So.')).toBe(true);
    expect(hasRepetition('and then I went to the the store')).toBe(false);
    expect(segmentFlags({ text: 'Thank you. Thank you. Thank you. Thank you. Thank you.', start: 0, end: 4 })).toContain('repetition');
  });

  it("mark text that compresses past Whisper's threshold (a loop it did not see word by word)", () => {
    const loop = 'the quick brown fox jumps over it, '.repeat(6);
    expect(segmentFlags({ text: loop, start: 0, end: 30 })).toContain('compression_ratio');
    expect(segmentFlags({ text: loop, start: 0, end: 30 }, { compressionRatioThreshold: 10 })).not.toContain('compression_ratio');
  });

  it('mark more words per second than people speak, on a segment long enough to judge', () => {
    const text = 'one two three four five six seven eight nine ten eleven twelve';
    expect(segmentFlags({ text, start: 0, end: 1 })).toEqual(['speech_rate']);
    expect(segmentFlags({ text, start: 0, end: 3 })).toEqual([]);
    expect(segmentFlags({ text: 'yes no', start: 0, end: 0.1 })).toEqual([]);
  });

  it('raise no doubt about real speech (every reference transcript in ../shared, at a reading pace)', () => {
    const texts = references();
    expect(texts.length).toBeGreaterThan(50);
    for (const text of texts) {
      const seconds = text.split(/\s+/).length / 2.5;
      expect({ text, flags: segmentFlags({ text, start: 0, end: seconds }) }).toEqual({ text, flags: [] });
    }
    expect(segmentFlags({ text: '', start: 0, end: 0 })).toEqual([]);
  });
});
