/**
 * How much longer than on a quiet machine a test may take before it counts as hung. Timeouts in the tests are safety
 * nets for a hang, never a measure (docs/testing.md: no test asserts a time), so on a busy machine — a second suite at
 * once, stress-ng, other engineers' builds on the same two cores — they stretch with the load instead of failing work
 * that is only waiting for a core: the factor is the 1-minute load average per core when the test file starts,
 * between 1 and MAX_TIME_SCALE, or $VOXDESK_TEST_TIME_SCALE when set (a slow machine's owner says so once).
 *
 *   it('transcribes a long file', async () => { … }, scaled(120_000));
 *   await page.waitForSelector('.done', { timeout: scaled(30_000) });
 *
 * Lint keeps it true: a test's, hook's or wait's timeout written as a bare number is refused (eslint.config.js).
 */
import { availableParallelism, loadavg } from 'node:os';

/** The most a timeout stretches under load: a run five times over its cores is slow, one beyond that is broken. */
export const MAX_TIME_SCALE = 5;

/** The factor for this run (see above); read once per test file. */
export function timeScale(env: NodeJS.ProcessEnv = process.env): number {
  const given = env.VOXDESK_TEST_TIME_SCALE;
  if (given !== undefined && given !== '') {
    const factor = Number(given);
    if (!(factor >= 1)) throw new Error(`VOXDESK_TEST_TIME_SCALE must be a number of at least 1, not "${given}"`);
    return factor;
  }
  const perCore = (loadavg()[0] ?? 0) / Math.max(1, availableParallelism());
  return Math.min(MAX_TIME_SCALE, Math.max(1, perCore));
}

const SCALE = timeScale();

/** A timeout of `ms` on a quiet machine, stretched by this run's load (whole milliseconds). */
export function scaled(ms: number): number {
  return Math.round(ms * SCALE);
}
