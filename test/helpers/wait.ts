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

export interface UntilFoundOptions extends UntilOptions {
  /** A probe that throws is tried again (a service still starting); the last error is named if time runs out. */
  retryErrors?: boolean;
}

/** Waits until `probe` answers a value (not undefined, null or false) and returns it. */
export async function untilFound<T>(what: string, probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, options: UntilFoundOptions = {}): Promise<T> {
  type Answer = { value: T | undefined | null | false } | { error: string };
  const read = async (): Promise<Answer> => {
    try {
      return { value: await probe() };
    } catch (error) {
      if (!options.retryErrors) throw error;
      return { error: String(error) };
    }
  };
  const answer = await until(what, read, (a) => 'value' in a && a.value !== undefined && a.value !== null && a.value !== false, options);
  return (answer as { value: T }).value;
}
