/**
 * The one wait of the tests that poll: reads until `done` holds, every `everyMs`, and fails after `timeoutMs`
 * (stretched on a busy machine: time-scale.ts) naming what it waited for and the last value it read.
 */
import { scaled } from './time-scale.js';

export interface UntilOptions {
  /** Default 120 s, scaled. */
  timeoutMs?: number;
  /** How often `read` runs (ms). Default 50; a test that must catch a short state (to kill a process in it) reads more often. */
  everyMs?: number;
}

export async function until<T>(what: string, read: () => T | Promise<T>, done: (value: T) => boolean, options: UntilOptions = {}): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? scaled(120_000));
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)?.slice(0, 400)}`);
    await new Promise((resolve) => setTimeout(resolve, options.everyMs ?? 50));
  }
}
