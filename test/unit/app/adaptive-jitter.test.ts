import { describe, expect, it } from 'vitest';
import { AdaptiveJitter, DEFAULT_ADAPTIVE_JITTER } from '../../../src-main/app/player/adaptive-jitter.js';

describe('adaptive jitter buffer policy', () => {
  it('starts small and stays there while nothing underruns', () => {
    const jitter = new AdaptiveJitter();
    expect(jitter.targetMs).toBe(DEFAULT_ADAPTIVE_JITTER.startMs);
    jitter.playedCleanly(60_000);
    expect(jitter.targetMs).toBe(DEFAULT_ADAPTIVE_JITTER.startMs);
    expect(jitter.underruns).toBe(0);
  });

  it('grows only after an underrun — at least doubling — up to its ceiling', () => {
    const jitter = new AdaptiveJitter({ startMs: 20, growMs: 40, maxMs: 300 });
    jitter.underrun();
    expect(jitter.targetMs).toBe(60);
    jitter.underrun();
    expect(jitter.targetMs).toBe(120);
    jitter.underrun();
    expect(jitter.targetMs).toBe(240);
    jitter.underrun();
    expect(jitter.targetMs).toBe(300);
    expect(jitter.underruns).toBe(4);
  });

  it('shrinks slowly back to the start value after clean playback', () => {
    const jitter = new AdaptiveJitter({ startMs: 20, growMs: 40, shrinkMsPerSecond: 2 });
    jitter.underrun();
    jitter.playedCleanly(5_000);
    expect(jitter.targetMs).toBe(50);
    jitter.playedCleanly(0);
    jitter.playedCleanly(-1);
    jitter.playedCleanly(Number.NaN);
    expect(jitter.targetMs).toBe(50);
    jitter.playedCleanly(3_600_000);
    expect(jitter.targetMs).toBe(20);
  });

  it('refuses settings that make no sense', () => {
    expect(() => new AdaptiveJitter({ startMs: -1 })).toThrow(/startMs/);
    expect(() => new AdaptiveJitter({ growMs: Number.POSITIVE_INFINITY })).toThrow(/growMs/);
    expect(() => new AdaptiveJitter({ startMs: 100, maxMs: 50 })).toThrow(/maxMs/);
  });
});
