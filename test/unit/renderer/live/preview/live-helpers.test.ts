/** The Live tab's pure helpers (src-renderer/src/live/preview/) and the Speak tab's text helpers. */
import { describe, expect, it } from 'vitest';
import { finishedSentences } from '../../../../../src-renderer/src/live/preview/live-sentences.js';
import { pcm16ToFloat32, scheduleStart } from '../../../../../src-renderer/src/live/preview/pcm-schedule.js';
import { estimateSpeechSeconds, splitBatchLines } from '../../../../../src-renderer/src/speak/speech-text.js';

describe('live helpers', () => {
  it('schedules frames back to back with a jitter lead after an underrun', () => {
    expect(scheduleStart(10, 0, 0.12)).toBeCloseTo(10.12);
    expect(scheduleStart(10, 10.5, 0.12)).toBe(10.5);
    expect(scheduleStart(10, 10.001, 0.12)).toBeCloseTo(10.12);
  });

  it('converts PCM16 to float', () => {
    const pcm = new Int16Array([0, 16384, -32768, 32767]);
    expect(Array.from(pcm16ToFloat32(pcm.buffer))).toEqual([0, 0.5, -1, 32767 / 32768]);
    expect(pcm16ToFloat32(new Uint8Array([1, 2, 3]).buffer)).toHaveLength(1);
  });

  it('speaks finished sentences as they are typed', () => {
    expect(finishedSentences('Hello there', 0)).toBeNull();
    expect(finishedSentences('Hello there. How', 0)).toEqual({ chunk: 'Hello there.', end: 13 });
    expect(finishedSentences('Hello there. How are you? Fine', 13)).toEqual({ chunk: 'How are you?', end: 26 });
    expect(finishedSentences('Line one\nline', 0)).toEqual({ chunk: 'Line one', end: 9 });
  });

  it('estimates speaking time and splits batch lines', () => {
    expect(estimateSpeechSeconds('x'.repeat(30))).toBe(2);
    expect(estimateSpeechSeconds('   ')).toBe(0);
    expect(splitBatchLines('one\n\n  two \r\nthree')).toEqual(['one', 'two', 'three']);
  });
});
