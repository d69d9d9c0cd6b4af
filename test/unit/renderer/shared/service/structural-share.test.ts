/** Structural sharing of polled lists (src-renderer/src/shared/service/structural-share.ts): a poll redraws only what changed. */
import { describe, expect, it } from 'vitest';
import { share, shareById } from '../../../../../src-renderer/src/shared/service/structural-share.js';


interface Row {
  id: string;
  status: string;
  progress: number | null;
  result: { text: string; words: { word: string; start: number }[] } | null;
}

const row = (id: string, status = 'queued', progress: number | null = null): Row => ({ id, status, progress, result: null });
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('share', () => {
  it('returns the previous object when the fresh one is deep-equal', () => {
    const prev = { a: 1, b: [1, 2, { c: 'x' }], d: null };
    expect(share(prev, clone(prev))).toBe(prev);
  });

  it('keeps unchanged branches and replaces only the changed ones', () => {
    const prev = { keep: { words: [{ word: 'a' }] }, change: { n: 1 } };
    const next = { keep: { words: [{ word: 'a' }] }, change: { n: 2 } };
    const out = share(prev, next);
    expect(out).not.toBe(prev);
    expect(out).toEqual(next);
    expect(out.keep).toBe(prev.keep);
  });

  it('sees added, removed and type-changed fields', () => {
    expect(share({ a: 1 } as object, { a: 1, b: 2 })).toEqual({ a: 1, b: 2 });
    expect(share({ a: 1, b: 2 } as object, { a: 1 })).toEqual({ a: 1 });
    expect(share({ a: 1, b: undefined } as object, { a: 1, c: undefined })).toEqual({ a: 1, c: undefined });
    expect(share({ a: [1] } as object, { a: { 0: 1 } })).toEqual({ a: { 0: 1 } });
    expect(share([1, 2], [1, 2, 3])).toEqual([1, 2, 3]);
    expect(share(null, { a: 1 })).toEqual({ a: 1 });
    expect(share({ a: 1 }, null)).toBeNull();
  });
});

describe('shareById', () => {
  it('returns the previous array when nothing changed', () => {
    const prev = [row('a'), row('b')];
    expect(shareById(prev, clone(prev))).toBe(prev);
  });

  it('keeps unchanged items by id when new items shift the positions', () => {
    const prev = [row('b', 'running', 0.5), row('a', 'succeeded')];
    const next = [row('c'), row('b', 'running', 0.6), row('a', 'succeeded')];
    const out = shareById(prev, next);
    expect(out.map((r) => r.id)).toEqual(['c', 'b', 'a']);
    expect(out[2]).toBe(prev[1]);
    expect(out[1]).not.toBe(prev[0]);
    expect(out[1]!.progress).toBe(0.6);
  });

  it('drops items that are gone and keeps a finished result object stable across polls', () => {
    const done: Row = { ...row('a', 'succeeded'), result: { text: 'hi there', words: [{ word: 'hi', start: 0 }] } };
    const first = shareById([], [done, row('b')]);
    const second = shareById(first, [clone(done)]);
    expect(second).toHaveLength(1);
    expect(second[0]).toBe(first[0]);
    expect(second[0]!.result).toBe(done.result);
  });
});
