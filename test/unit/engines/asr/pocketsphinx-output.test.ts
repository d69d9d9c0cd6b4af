import { describe, expect, it } from 'vitest';
import { utteranceFromSegments, type SphinxSegment } from '../../../../src-main/engines/asr/pocketsphinx-output.js';

const seg = (token: string, start: number, end: number): SphinxSegment => ({ token, start, end });

describe('utteranceFromSegments', () => {
  it('turns an utterance into a piece with word times, dropping fillers and alternate markers', () => {
    const piece = utteranceFromSegments([seg('<s>', 3.17, 3.28), seg('and(2)', 3.29, 3.82), seg('<sil>', 3.83, 3.98), seg('not', 3.99, 4.3), seg('</s>', 4.31, 4.76)]);
    expect(piece).toEqual({
      start: 3.29,
      end: 4.3,
      text: 'and not',
      words: [
        { word: 'and', start: 3.29, end: 3.82 },
        { word: 'not', start: 3.99, end: 4.3 },
      ],
      until: 4.76, // where </s> closed it: a resume point past the silence
    });
  });

  it('an utterance of noise only is no piece', () => {
    expect(utteranceFromSegments([seg('<s>', 5, 5.1), seg('[NOISE]', 5.11, 5.3), seg('++BREATH++', 5.31, 5.4), seg('</s>', 5.41, 5.5)])).toBeNull();
    expect(utteranceFromSegments([])).toBeNull();
  });

  it('a stream cut in the middle of an utterance (no </s>) ends it at its last word', () => {
    const piece = utteranceFromSegments([seg('<s>', 5.3, 5.34), seg('what', 5.35, 5.6), seg('your', 5.61, 5.85)]);
    expect(piece).toMatchObject({ start: 5.35, end: 5.85, text: 'what your', until: 5.85 });
  });
});
