/**
 * How a long-running command (`voxdesk serve`, `voxdesk worker`) ends: the first SIGTERM/SIGINT drains — `close`
 * gets the grace period in which running jobs may finish before they go back to the queue — and exits 0 when done (1
 * when the shutdown failed); a second signal exits at once, for the person who pressed Ctrl-C twice. One place, so
 * both commands end the same way and an orchestrator can rely on it.
 */
import type { Log } from '../common/log.js';
export interface DrainOnSignalOptions {
  /** Grace period for running jobs, in seconds (--shutdown-grace). */
  graceSeconds: number;
  /** Stops taking work and resolves once drained; given the grace period in ms. */
  close(graceMs: number): Promise<void>;
  /** What the command is doing while it drains, for the log line (e.g. "draining (no more claims)"). */
  drainingWhat: string;
  log: Log;
}

export function drainOnSignal(options: DrainOnSignalOptions): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      options.log.info(`${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    options.log.info(`${signal}: ${options.drainingWhat} (running jobs get ${options.graceSeconds} s to finish, then return to the queue)`);
    options.close(options.graceSeconds * 1000).then(
      () => process.exit(0),
      (error: unknown) => {
        options.log.error(`shutdown failed: ${(error as Error).stack ?? String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
