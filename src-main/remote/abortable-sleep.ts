/**
 * setTimeout as a promise that rejects with the signal's reason when the signal aborts (a cancel, a stop).
 * `unref`: the pause alone does not keep the process alive (a background poller's pause).
 */
export function sleep(ms: number, signal: AbortSignal, options: { unref?: boolean } = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    if (options.unref) timer.unref();
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
