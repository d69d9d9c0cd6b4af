/** The failed-key limiter with a fake clock: the 51st failure in a minute blocks, the block ends as failures age out. */
import { describe, expect, it } from 'vitest';
import { FailedAuthLimiter } from '../../../../src-main/service/auth/failed-auth-limiter.js';

describe('FailedAuthLimiter', () => {
  it('blocks past 50 failures a minute, keeps known keys working, and lifts the block when failures age out', () => {
    let now = 1_000_000;
    const limiter = new FailedAuthLimiter({ now: () => now });
    expect(limiter.check('10.0.0.1', 'key_mine')).toEqual({ allowed: true });
    for (let i = 0; i < 50; i++) {
      now += 100;
      expect(limiter.check('10.0.0.1', null)).toEqual({ allowed: true });
    }
    now += 100;
    const blocked = limiter.check('10.0.0.1', null);
    expect(blocked).toEqual({ allowed: false, retryAfterSeconds: 55 }); // the first failure leaves the window in 55 s
    expect(limiter.check('10.0.0.1', 'key_mine')).toEqual({ allowed: true });
    expect(limiter.check('10.0.0.1', 'key_new')).toMatchObject({ allowed: false });
    expect(limiter.check('10.0.0.2', null)).toEqual({ allowed: true }); // another address is not affected
    expect(limiter.retryAfter('10.0.0.1')).toBeGreaterThan(0);
    now += 61_000;
    expect(limiter.retryAfter('10.0.0.1')).toBe(0);
    expect(limiter.check('10.0.0.1', 'key_new')).toEqual({ allowed: true });
  });
});
