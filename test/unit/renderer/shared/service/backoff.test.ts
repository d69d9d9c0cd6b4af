/** The job poller's backoff (src-renderer/src/shared/service/backoff.ts). */
import { describe, expect, it } from 'vitest';
import { Backoff, fingerprint } from '../../../../../src-renderer/src/shared/service/backoff.js';

describe('polling backoff', () => {
  it('backs off while nothing changes and snaps back on change', () => {
    const b = new Backoff({ minMs: 500, maxMs: 4000, factor: 2 });
    expect([b.next(false), b.next(false), b.next(false), b.next(false)]).toEqual([1000, 2000, 4000, 4000]);
    expect(b.next(true)).toBe(500);
    expect(fingerprint([{ id: 'a', status: 'running', progress: 0.5 }])).not.toBe(fingerprint([{ id: 'a', status: 'running', progress: 0.6 }]));
  });
});
