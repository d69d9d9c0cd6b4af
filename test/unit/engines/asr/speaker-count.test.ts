import { describe, expect, it } from 'vitest';
import { readAsrParams, speakerCount } from '../../../../src-main/engines/asr/asr-params.js';
import { nearestAllowedCount } from '../../../../src-main/engines/asr/diarization.js';
import { voiceStretches } from '../../../../src-main/engines/asr/diarization-voices.js';
import { MAX_DIARIZATION_SPEAKERS } from '../../../../src-main/common/limits.js';

const rules = { languages: ['en'], translate: false, diarization: true, vad: false, transducer: false };
const message = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    return `${(error as { code: string }).code}: ${(error as Error).message}`;
  }
  return 'no error';
};

describe('speaker counts', () => {
  it('num_speakers, or min_speakers/max_speakers, each 1 to the documented maximum', () => {
    expect(speakerCount({})).toEqual({});
    expect(speakerCount({ num_speakers: 3 })).toEqual({ exact: 3 });
    expect(speakerCount({ min_speakers: 2 })).toEqual({ min: 2 });
    expect(speakerCount({ min_speakers: 2, max_speakers: 2 })).toEqual({ min: 2, max: 2 });
    expect(message(() => speakerCount({ num_speakers: 2, max_speakers: 3 }))).toMatch(/invalid_params: give num_speakers .* or min_speakers\/max_speakers .*not both/);
    expect(message(() => speakerCount({ min_speakers: 4, max_speakers: 3 }))).toBe('invalid_params: min_speakers (4) is more than max_speakers (3)');
    expect(message(() => speakerCount({ min_speakers: 0 }))).toBe(`invalid_params: min_speakers must be an integer from 1 to ${MAX_DIARIZATION_SPEAKERS}`);
    expect(message(() => speakerCount({ max_speakers: MAX_DIARIZATION_SPEAKERS + 1 }))).toMatch(/max_speakers must be an integer from 1 to 20/);
    expect(message(() => speakerCount({ num_speakers: 1.5 }))).toMatch(/num_speakers must be an integer/);
  });

  it('a count without speaker_diarization is refused; the match threshold is read with it', () => {
    expect(message(() => readAsrParams({ min_speakers: 2 }, rules))).toBe('invalid_params: num_speakers, min_speakers and max_speakers need speaker_diarization true');
    const params = readAsrParams({ speaker_diarization: true, max_speakers: 4, speaker_match_threshold: 0.8 }, rules);
    expect([params.speakers, params.speakerMatchThreshold]).toEqual([{ max: 4 }, 0.8]);
    expect(message(() => readAsrParams({ speaker_diarization: true, speaker_match_threshold: 2 }, rules))).toMatch(/speaker_match_threshold must be a number from 0 to 1/);
  });

  it('a range clusters again into its nearest bound only when the estimate falls outside it', () => {
    expect(nearestAllowedCount(1, { min: 2 })).toBe(2);
    expect(nearestAllowedCount(5, { min: 2, max: 3 })).toBe(3);
    expect(nearestAllowedCount(3, { min: 2, max: 3 })).toBeNull();
    expect(nearestAllowedCount(7, {})).toBeNull();
  });

  it('a voice is computed over the speaker\'s own audio, longest stretches first, at most the bound', () => {
    const turns = [
      { start: 0, end: 10, speaker: 'A' },
      { start: 8, end: 12, speaker: 'B' },
      { start: 20, end: 50, speaker: 'A' },
      { start: 60, end: 100, speaker: 'A' },
    ];
    // A alone: 0–8, 20–50, 60–100; the 60 s bound takes 60–100 whole, then 20 s of 20–50.
    expect(voiceStretches('A', turns)).toEqual([
      [20, 40],
      [60, 100],
    ]);
    expect(voiceStretches('B', turns)).toEqual([[10, 12]]);
  });
});
