import { describe, expect, it } from 'vitest';
import type { TranscriptSegment, TranscriptWord } from '../../../../src-main/common/api-types.js';
import { labelSpeakers, speakerAt, splitSegmentsBySpeaker, type SpeakerTurn } from '../../../../src-main/engines/asr/diarization.js';

const turns: SpeakerTurn[] = [
  { start: 0, end: 4, speaker: 'SPEAKER_0' },
  { start: 3.5, end: 8, speaker: 'SPEAKER_1' },
];

describe('speaker labels', () => {
  it('takes the speaker with the most overlap, else the nearest turn', () => {
    expect(speakerAt(turns, 1, 2)).toBe('SPEAKER_0');
    expect(speakerAt(turns, 3, 6)).toBe('SPEAKER_1');
    expect(speakerAt(turns, 9, 10)).toBe('SPEAKER_1');
    expect(speakerAt([], 0, 1)).toBeUndefined();
  });

  it('splits a segment where its words change speaker, renumbering ids', () => {
    const words: TranscriptWord[] = [
      { word: 'hi', start: 0.5, end: 0.9 },
      { word: 'there', start: 1, end: 1.5 },
      { word: 'hello', start: 5, end: 5.5 },
      { word: 'again', start: 9, end: 9.5 },
    ];
    const segments: TranscriptSegment[] = [
      { id: 0, start: 0.3, end: 6, text: 'hi there hello' },
      { id: 1, start: 8.8, end: 9.8, text: 'again' },
    ];
    labelSpeakers(words, turns);
    labelSpeakers(segments, turns);
    expect(splitSegmentsBySpeaker(segments, words)).toEqual([
      { id: 0, start: 0.5, end: 1.5, text: 'hi there', speaker: 'SPEAKER_0' },
      { id: 1, start: 5, end: 5.5, text: 'hello', speaker: 'SPEAKER_1' },
      { id: 2, start: 8.8, end: 9.8, text: 'again', speaker: 'SPEAKER_1' },
    ]);
  });
});
