/**
 * The second decode of a doubtful segment: split at its quietest moment, each half recognised apart, and the
 * halves kept only when they raise fewer flags. The recognizer here is a function of the samples it is given (what
 * a real one is to this code), so each case can say what the first and second decodes return.
 */
import { describe, expect, it } from 'vitest';
import { decodeWithRetry, quietestSplit, type Decoded, type Recognize } from '../../../../src-main/engines/asr/flagged-redecode.js';
import { silentLog } from '../../../../src-main/common/log.js';
import { logInto } from '../../../helpers/log.js';

const RATE = 16_000;
const LOOP = 'thank you thank you thank you thank you thank you thank you thank you';

/** Four seconds of a tone with a silent 100 ms at `quietAt` seconds. */
function speech(quietAt = 2.2): Float32Array {
  const out = new Float32Array(4 * RATE);
  for (let i = 0; i < out.length; i++) out[i] = 0.3 * Math.sin((2 * Math.PI * 220 * i) / RATE);
  out.fill(0, Math.round(quietAt * RATE), Math.round((quietAt + 0.1) * RATE));
  return out;
}

function recognizer(whole: string, halves: [string, string]): { recognize: Recognize; calls: [number, number][] } {
  const calls: [number, number][] = [];
  const recognize: Recognize = (samples, start, end): Decoded => {
    calls.push([start, end]);
    const text = calls.length === 1 ? whole : calls.length === 2 ? halves[0] : halves[1];
    return { text, language: 'en', words: text ? [{ word: text.split(' ')[0]!, start, end }] : [] };
  };
  return { recognize, calls };
}

describe('decodeWithRetry', () => {
  it('splits a flagged segment at its quietest moment and keeps the halves when they are clean', () => {
    const { recognize, calls } = recognizer(LOOP, ['thank you for coming', 'to the meeting']);
    const lines: string[] = [];
    const kept = decodeWithRetry(recognize, speech(), 10, 14, undefined, logInto(lines));
    expect(kept.text).toBe('thank you for coming to the meeting');
    expect(calls.length).toBe(3);
    expect(calls[1]![0]).toBe(10);
    expect(calls[1]![1]).toBeCloseTo(12.2, 1); // the silence, not the exact middle
    expect(calls[2]![1]).toBe(14);
    expect(kept.words.map((w) => w.start)).toEqual([10, calls[1]![1]]);
    expect(lines[0]).toMatch(/flagged repetition, compression_ratio; decoded again in two halves: no flag; kept the second decode/);
  });

  it('keeps the first decode when the halves are no better (and it stays flagged for the editor)', () => {
    const { recognize } = recognizer(LOOP, [LOOP, LOOP]);
    const lines: string[] = [];
    expect(decodeWithRetry(recognize, speech(), 0, 4, undefined, logInto(lines)).text).toBe(LOOP);
    expect(lines[0]).toMatch(/kept the first decode/);
  });

  it('decodes a clean segment once, and does not split one too short to halve', () => {
    const clean = recognizer('a perfectly ordinary sentence', ['x', 'y']);
    expect(decodeWithRetry(clean.recognize, speech(), 0, 4, undefined, silentLog).text).toBe('a perfectly ordinary sentence');
    expect(clean.calls.length).toBe(1);
    const short = recognizer(LOOP, ['x', 'y']);
    expect(decodeWithRetry(short.recognize, new Float32Array(RATE), 0, 1, undefined, silentLog).text).toBe(LOOP);
    expect(short.calls.length).toBe(1);
  });

  it('finds the quietest moment within the middle half', () => {
    expect(quietestSplit(speech(1.5)) / RATE).toBeCloseTo(1.525, 2);
    expect(quietestSplit(speech(0.2)) / RATE).toBeGreaterThanOrEqual(1); // a silence outside the middle half is not taken
  });
});
