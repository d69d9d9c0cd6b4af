import { describe, expect, it } from 'vitest';
import { PocketsphinxOutputParser } from '../../../../src-main/engines/asr/pocketsphinx-output.js';

const OUTPUT = `and not
<s> 3.170 3.280 1.000300
and(2) 3.290 3.820 0.980491
<sil> 3.830 3.980 0.867867
not 3.990 4.300 0.732981
</s> 4.310 4.760 1.000000

<s> 5.000 5.100 1.0
[NOISE] 5.110 5.300 0.5
</s> 5.310 5.500 1.0
what your
<s> 5.300 5.340 0.999200
what 5.350 5.600 0.285662
your 5.610 5.850 0.709042`;

describe('PocketsphinxOutputParser', () => {
  it('turns utterances into pieces with word times, dropping fillers and alternate markers', () => {
    const parser = new PocketsphinxOutputParser();
    const closed = OUTPUT.split('\n').flatMap((line) => parser.line(line) ?? []);
    expect(closed.map((u) => u.text)).toEqual(['and not']); // reported as soon as </s> closes it
    const pieces = parser.finish();
    expect(pieces).toEqual([
      {
        start: 3.29,
        end: 4.3,
        text: 'and not',
        words: [
          { word: 'and', start: 3.29, end: 3.82 },
          { word: 'not', start: 3.99, end: 4.3 },
        ],
        until: 4.76, // where </s> closed it: a resume point past the silence
      },
      {
        start: 5.35,
        end: 5.85,
        text: 'what your',
        words: [
          { word: 'what', start: 5.35, end: 5.6 },
          { word: 'your', start: 5.61, end: 5.85 },
        ],
        until: 5.85, // cut stream: no </s>
      },
    ]);
  });
});
