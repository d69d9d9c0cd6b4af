/**
 * A wait that ends early, without an error, when the signal aborts: for waits whose only purpose is to give something
 * else time (a test's segment delay, the start-up warm-up's pause for the compilers), where being cut short by a stop
 * is the normal way out and not a failure. (remote/abortable-sleep.ts is the other kind: it rejects, so a retry loop
 * stops at once.)
 */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
