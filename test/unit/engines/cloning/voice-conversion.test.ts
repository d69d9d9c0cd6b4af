import { describe, expect, it } from 'vitest';
import { layInto } from '../../../../src-main/engines/cloning/voice-conversion.js';

describe('layInto: an utterance spoken again, laid at its start', () => {
  it('adds a speech that fits, and leaves the rest silent', () => {
    const out = new Float32Array(10);
    expect(layInto(out, Float32Array.from([1, 1, 1]), 2, 5, 1000)).toBe(false);
    expect([...out]).toEqual([0, 0, 1, 1, 1, 0, 0, 0, 0, 0]);
  });

  it('cuts one longer than its room, fading its end out', () => {
    const out = new Float32Array(40);
    const speech = new Float32Array(40).fill(1);
    expect(layInto(out, speech, 5, 20, 1000)).toBe(true);
    expect(out[5]).toBe(1);
    expect(out[24]).toBeGreaterThan(0);
    expect(out[24]).toBeLessThan(out[15]!);
    expect(out[25]).toBe(0);
  });

  it('never writes past the end of the recording', () => {
    const out = new Float32Array(6);
    expect(layInto(out, new Float32Array(5).fill(0.5), 4, 10, 1000)).toBe(true);
    expect(out.length).toBe(6);
    expect(out[4]).toBeGreaterThan(0);
  });
});
