/**
 * Word alignment within a budget (trust review 2, item 1): small edits are aligned word by word; a segment
 * rewritten wholesale is taken as replaced; one edit's work is bounded whatever it holds.
 */
import { diffArrays } from 'diff';
import { describe, expect, it } from 'vitest';
import { ALIGNMENT_BUDGET, AlignmentBudget, alignWords, MAX_EDIT_LENGTH } from '../../../../src-main/jobs/transcripts/word-alignment.js';

const words = (n: number, prefix = 'w') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe('alignWords', () => {
  it('keeps shared starts and ends and aligns the middle like a diff', () => {
    const old = 'the quick brown fox jumps over the lazy dog'.split(' ');
    const next = 'the quick red fox leaps over the dog'.split(' ');
    expect(alignWords(old, next, new AlignmentBudget())).toEqual([
      { kind: 'kept', count: 2 },
      { kind: 'removed', count: 1 },
      { kind: 'added', count: 1 },
      { kind: 'kept', count: 1 },
      { kind: 'removed', count: 1 },
      { kind: 'added', count: 1 },
      { kind: 'kept', count: 2 },
      { kind: 'removed', count: 1 },
      { kind: 'kept', count: 1 },
    ]);
  });

  it('agrees with an unbounded diff on what is kept for ordinary edits', () => {
    const old = words(2000);
    const next = [...old];
    next.splice(1500, 3, 'x', 'y');
    next.splice(40, 0, 'inserted');
    next[900] = 'changed';
    const kept = (changes: Array<{ kind?: string; added?: boolean; removed?: boolean; count?: number; value?: string[] }>) =>
      changes.filter((c) => c.kind === 'kept' || (!c.kind && !c.added && !c.removed)).reduce((n, c) => n + (c.count ?? c.value!.length), 0);
    expect(kept(alignWords(old, next, new AlignmentBudget()))).toBe(kept(diffArrays(old, next)));
  });

  it('takes a segment rewritten wholesale as replaced, within a bounded number of comparisons', () => {
    // The review's PATCH: 4,999 words replaced by 4,999 others took 2.4 s of the service thread.
    const budget = new AlignmentBudget();
    const changes = alignWords(words(4999), words(4999, 'x'), budget);
    expect(changes).toEqual([
      { kind: 'removed', count: 4999 },
      { kind: 'added', count: 4999 },
    ]);
    expect(budget.allowance(9998)).toBeLessThan(MAX_EDIT_LENGTH);
  });

  it('one budget runs out across segments, after which middles are replaced without a search', () => {
    const budget = new AlignmentBudget();
    let searched = 0;
    for (let i = 0; i < 10; i += 1) {
      if (budget.allowance(9998) >= 2) searched += 1;
      alignWords(words(4999), words(4999, `s${i}-`), budget);
    }
    // ALIGNMENT_BUDGET / (9,998 x 256) ≈ 1.6 segments get a search; the rest are replaced at once.
    expect(searched).toBeLessThanOrEqual(Math.ceil(ALIGNMENT_BUDGET / (9998 * 2)));
    expect(searched).toBeGreaterThanOrEqual(1);
    expect(budget.allowance(9998)).toBe(0);
    // A small edit after that still keeps what it shares at its ends.
    expect(alignWords(['a', 'b', 'c'], ['a', 'x', 'c'], budget)).toEqual([
      { kind: 'kept', count: 1 },
      { kind: 'removed', count: 1 },
      { kind: 'added', count: 1 },
      { kind: 'kept', count: 1 },
    ]);
  });
});
