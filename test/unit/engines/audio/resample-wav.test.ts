import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resampleMono } from '../../../../src-main/engines/audio/resample.js';
import { decodeWav, encodeWav } from '../../../../src-main/engines/audio/wav.js';
import { floatToS16le, interleave, s16leToFloat } from '../../../../src-main/engines/audio/pcm.js';
import { SHARED } from '../../../helpers/system.js';

function tone(freq: number, rate: number, seconds: number): Float32Array {
  const out = new Float32Array(Math.round(rate * seconds));
  for (let i = 0; i < out.length; i++) out[i] = 0.5 * Math.sin((2 * Math.PI * freq * i) / rate);
  return out;
}
function rms(x: Float32Array, from = 0, to = x.length): number {
  let s = 0;
  for (let i = from; i < to; i++) s += x[i]! * x[i]!;
  return Math.sqrt(s / Math.max(1, to - from));
}

describe('resampleMono', () => {
  it('returns the input itself when rates match', async () => {
    const x = tone(440, 16000, 0.1);
    expect(await resampleMono(x, 16000, 16000)).toBe(x);
  });

  it.each([
    [48000, 16000],
    [22050, 48000],
    [16000, 22050],
    [44100, 8000],
  ])('%i → %i Hz keeps length exact and the tone aligned', async (from, to) => {
    const x = tone(440, from, 2);
    const y = await resampleMono(x, from, to);
    expect(y.length).toBe(Math.round((x.length * to) / from));
    // Energy is preserved (0.5 amplitude sine → rms 0.3536) away from the edges, and the end is not cut.
    expect(rms(y, Math.round(to * 0.1), Math.round(to * 1.9))).toBeCloseTo(0.3536, 2);
    expect(rms(y, y.length - Math.round(to * 0.02))).toBeGreaterThan(0.3);
    // Aligned: the resampled tone matches the tone generated at the new rate (no filter delay left).
    const ref = tone(440, to, 2);
    let err = 0;
    for (let i = to * 0.5; i < to * 1.5; i++) err += (y[i]! - ref[i]!) ** 2;
    expect(Math.sqrt(err / to)).toBeLessThan(0.02);
  });

  it('handles long input across chunks and empty input', async () => {
    const x = tone(300, 48000, 10);
    const y = await resampleMono(x, 48000, 16000);
    expect(y.length).toBe(160000);
    expect(rms(y, 10000, 150000)).toBeCloseTo(0.3536, 2);
    expect((await resampleMono(new Float32Array(0), 48000, 16000)).length).toBe(0);
  });

  it('rejects impossible rates', async () => {
    await expect(resampleMono(new Float32Array(10), 0, 16000)).rejects.toThrow(/fromRate/);
    await expect(resampleMono(new Float32Array(10), 16000, 1.5)).rejects.toThrow(/toRate/);
  });
});

describe('wav', () => {
  it('round-trips mono and stereo 16-bit', () => {
    const l = tone(440, 22050, 0.5);
    const r = tone(880, 22050, 0.5);
    const bytes = encodeWav([l, r], 22050);
    expect(bytes.length).toBe(44 + l.length * 4);
    const back = decodeWav(bytes);
    expect(back.sampleRate).toBe(22050);
    expect(back.channels).toHaveLength(2);
    expect(back.channels[1]!.length).toBe(r.length);
    expect(Math.abs(back.channels[0]![100]! - l[100]!)).toBeLessThan(1 / 16384);
  });

  it('reads a real recording from ../shared', () => {
    const { sampleRate, channels } = decodeWav(readFileSync(`${SHARED}audio/jfk.wav`));
    expect(sampleRate).toBe(16000);
    expect(channels[0]!.length / sampleRate).toBeGreaterThan(10);
  });

  it('rejects non-WAV bytes with audio_decode_failed and bad input with RangeError', () => {
    expect(() => decodeWav(new TextEncoder().encode('hello, not audio at all'))).toThrow(
      expect.objectContaining({ code: 'audio_decode_failed' }),
    );
    expect(() => encodeWav([], 16000)).toThrow(RangeError);
    expect(() => encodeWav([new Float32Array(3), new Float32Array(4)], 16000)).toThrow(/differ/);
  });
});

describe('pcm', () => {
  it('converts float ⇄ s16le with clipping', () => {
    const b = floatToS16le(Float32Array.from([0, 1, -1, 2, -2, 0.5]));
    expect([...new Int16Array(b.buffer, b.byteOffset, 6)]).toEqual([0, 32767, -32768, 32767, -32768, 16384]);
    expect([...s16leToFloat(b)].slice(0, 3)).toEqual([0, 32767 / 32768, -1]);
    expect([...interleave([Float32Array.from([1, 2]), Float32Array.from([3, 4])])]).toEqual([1, 3, 2, 4]);
  });
});
