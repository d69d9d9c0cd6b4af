import { describe, expect, it } from 'vitest';
import { frozenJson } from '../../../../src-main/service/http/frozen-json.js';

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

describe('frozen JSON', () => {
  it('writes what JSON.stringify writes, for frozen and plain values alike', () => {
    const view = { id: 'job_1', status: 'succeeded', artifacts: [{ url: 'http://x/a.wav', bytes: 12 }], error: null };
    const expected = JSON.stringify(view);
    expect(frozenJson(view)).toBe(expected);
    const frozen = deepFreeze(structuredClone(view));
    expect(frozenJson(frozen)).toBe(expected);
    expect(frozenJson(frozen)).toBe(expected);
    for (const value of [null, 1, 'text', [1, 2]]) expect(frozenJson(value)).toBe(JSON.stringify(value));
  });

  it('never serves an old text for an object that can still change', () => {
    const plain: { status: string } = { status: 'queued' };
    expect(frozenJson(plain)).toContain('queued');
    plain.status = 'running';
    expect(frozenJson(plain)).toContain('running');
    // Frozen on top only: the inside may still change, so the text is made again each time.
    const shallow = Object.freeze({ id: 'job_2', progress: { done: 1 } });
    expect(frozenJson(shallow)).toContain('"done":1');
    shallow.progress.done = 2;
    expect(frozenJson(shallow)).toContain('"done":2');
  });
});
