/** Turn order between accounts: accounts round-robin, then their streams; a stream's items in order; drop at once. */
import { describe, expect, it } from 'vitest';
import { FairQueue } from '../../../src-main/common/fair-queue.js';

function drain<T>(queue: FairQueue<T>): Array<[number, T]> {
  const out: Array<[number, T]> = [];
  for (let next = queue.shift(); next; next = queue.shift()) out.push([next.stream, next.item]);
  return out;
}

describe('FairQueue', () => {
  it('gives an account with one stream a turn for every turn of an account with many', () => {
    const queue = new FairQueue<string>();
    for (let s = 1; s <= 4; s += 1) for (let i = 0; i < 3; i += 1) queue.push('b', s, `b${s}.${i}`);
    for (let i = 0; i < 3; i += 1) queue.push('a', 9, `a.${i}`);
    const order = drain(queue).map(([, item]) => item);
    // a's three items come within the first six turns, alternating with b's streams.
    expect(order.slice(0, 6)).toEqual(['b1.0', 'a.0', 'b2.0', 'a.1', 'b3.0', 'a.2']);
    expect(order).toHaveLength(15);
  });

  it('keeps each stream’s items in order', () => {
    const queue = new FairQueue<number>();
    for (let i = 0; i < 5; i += 1) {
      queue.push('a', 1, i);
      queue.push('a', 2, 10 + i);
    }
    const order = drain(queue);
    expect(order.filter(([s]) => s === 1).map(([, i]) => i)).toEqual([0, 1, 2, 3, 4]);
    expect(order.filter(([s]) => s === 2).map(([, i]) => i)).toEqual([10, 11, 12, 13, 14]);
  });

  it('drops a stream’s backlog at once', () => {
    const queue = new FairQueue<number>();
    for (let i = 0; i < 100; i += 1) queue.push('b', 1, i);
    queue.push('a', 2, 7);
    expect(queue.drop(1)).toHaveLength(100);
    expect(drain(queue)).toEqual([[2, 7]]);
    expect(queue.size).toBe(0);
    expect(queue.drop(1)).toEqual([]);
  });
});
