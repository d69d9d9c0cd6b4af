import { describe, expect, it } from 'vitest';
import { centreOf, cosine, matchSpeakers, SPEAKER_MATCH_THRESHOLD, type KnownSpeaker } from '../../../src-main/common/speaker-matching.js';

const profile = (id: string, name: string, centre: number[], not: number[][] = []): KnownSpeaker => ({ id, name, centre, not });

describe('speaker matching', () => {
  it('cosine similarity, and -1 for vectors that cannot be compared', () => {
    expect(cosine([1, 0], [2, 0])).toBeCloseTo(1);
    expect(cosine([1, 0], [0, 3])).toBeCloseTo(0);
    expect(cosine([1, 0], [1, 0, 0])).toBe(-1);
    expect(cosine([0, 0], [1, 0])).toBe(-1);
  });

  it('a profile\'s centre is the mean of its samples scaled to length 1', () => {
    expect(centreOf([[2, 0], [0, 10]])).toEqual([0.5, 0.5]);
    expect(centreOf([])).toBeNull();
    expect(centreOf([[1], [1, 2]])).toBeNull();
  });

  it('names a voice that reaches the threshold, not one below it', () => {
    const anna = profile('p1', 'Anna', [1, 0]);
    const close = { speaker: 'SPEAKER_0', embedding: [0.9, 0.1], seconds: 10 };
    const far = { speaker: 'SPEAKER_1', embedding: [0.2, 1], seconds: 10 };
    expect(cosine(far.embedding, anna.centre)).toBeLessThan(SPEAKER_MATCH_THRESHOLD);
    expect(matchSpeakers([close, far], [anna]).map((m) => [m.speaker, m.name])).toEqual([['SPEAKER_0', 'Anna']]);
    expect(matchSpeakers([close], [anna], 0.999)).toEqual([]);
  });

  it('two speakers never take one name, nor one speaker two: the most similar pair first', () => {
    const voices = [
      { speaker: 'SPEAKER_0', embedding: [1, 0.2], seconds: 5 },
      { speaker: 'SPEAKER_1', embedding: [1, 0.05], seconds: 5 },
    ];
    const matches = matchSpeakers(voices, [profile('p1', 'Anna', [1, 0]), profile('p2', 'Ben', [1, 0.3])]);
    expect(matches.map((m) => [m.speaker, m.name])).toEqual([
      ['SPEAKER_0', 'Ben'],
      ['SPEAKER_1', 'Anna'],
    ]);
    expect(matchSpeakers(voices, [profile('p1', 'Anna', [1, 0])]).map((m) => m.speaker)).toEqual(['SPEAKER_1']);
  });

  it('a "not" sample at least as close as the centre keeps the name off that voice, and off voices like it', () => {
    const voice = { speaker: 'SPEAKER_0', embedding: [1, 0.3], seconds: 5 };
    expect(matchSpeakers([voice], [profile('p1', 'Anna', [1, 0], [[1, 0.3]])])).toEqual([]);
    expect(matchSpeakers([{ ...voice, embedding: [1, 0.35] }], [profile('p1', 'Anna', [1, 0], [[1, 0.3]])])).toEqual([]);
    // Closer to the centre than to the "not" voice: still Anna.
    expect(matchSpeakers([{ ...voice, embedding: [1, 0.01] }], [profile('p1', 'Anna', [1, 0], [[1, 0.3]])]).map((m) => m.name)).toEqual(['Anna']);
  });
});
