/**
 * The process's last resort: an exception or a rejected promise that nothing caught is logged with its stack and
 * the service keeps serving, instead of the whole process — every account's requests, running jobs and live
 * sessions — ending because of one bad input somewhere (trust review 2: an archive entry took the process down at
 * every start). Each such error is a bug to fix at its cause; this only bounds its damage. Installed once by the
 * programs that host the service (`voxdesk serve`, the desktop app), never by the service itself, which may share
 * its process with others (tests, the CLI's in-process service).
 */
import type { Log } from '../common/log.js';

export interface LastResortOptions {
  /** Where the error goes (the service's log). */
  log: Log;
  /** The process to guard. Default: this one. */
  target?: Pick<NodeJS.Process, 'on'>;
}

/** Installs the handlers; returns how many errors they have caught so far (for health and tests). */
export function installLastResortHandlers(options: LastResortOptions): () => number {
  const target = options.target ?? process;
  let caught = 0;
  const report = (kind: string, error: unknown): void => {
    caught += 1;
    const text = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
    options.log.error(`${kind} (a bug, logged and survived; the service keeps serving): ${text}`);
  };
  target.on('uncaughtException', (error) => report('uncaught exception', error));
  target.on('unhandledRejection', (reason) => report('unhandled promise rejection', reason));
  return () => caught;
}
