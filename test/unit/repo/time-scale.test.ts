import { describe, expect, it } from 'vitest';
import { MAX_TIME_SCALE, timeScale } from '../../helpers/time-scale.js';

describe('the tests’ time scale', () => {
  it('is what $VOXDESK_TEST_TIME_SCALE says, and refuses a factor below 1', () => {
    expect(timeScale({ VOXDESK_TEST_TIME_SCALE: '3' })).toBe(3);
    expect(() => timeScale({ VOXDESK_TEST_TIME_SCALE: '0.5' })).toThrow(/at least 1/);
    expect(() => timeScale({ VOXDESK_TEST_TIME_SCALE: 'fast' })).toThrow(/at least 1/);
  });

  it('otherwise follows the load per core, between 1 and the cap', () => {
    const factor = timeScale({});
    expect(factor).toBeGreaterThanOrEqual(1);
    expect(factor).toBeLessThanOrEqual(MAX_TIME_SCALE);
  });
});
