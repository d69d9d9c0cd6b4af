/**
 * Background work yields the CPU to the work a person or a client is waiting on.
 *
 * The service thread answers every request of every account; the job engine's worker processes, the transcript edit
 * and export threads and the WAL checkpointer do work that takes seconds and that nobody watches sample by sample. On
 * a machine with few cores they compete for the same CPU, and the operating system shares it evenly, so one
 * account's heavy edits and exports stretched another account's 2 ms polls past 50 ms (trust review 2,
 * bench/hostile-neighbours.ts). Run at a lower priority, they take only what the service thread leaves: nothing
 * changes on an idle machine, and on a busy one the answers come first. Live dictation and live speech stay at normal
 * priority: a person hears or sees their delay.
 *
 * A process lowers itself (every OS: nice 10 on Linux and macOS, below-normal on Windows). A thread can lower only
 * itself on Linux, where the nice value belongs to each thread; elsewhere the call would lower the whole process, the
 * service thread included, so a thread there keeps the process's priority.
 */
import { constants, setPriority } from 'node:os';

export const BACKGROUND_PRIORITY = constants.priority.PRIORITY_BELOW_NORMAL;

/** Lowers the calling process (a worker process, at its start). False when the OS refused. */
export function lowerThisProcess(): boolean {
  try {
    setPriority(BACKGROUND_PRIORITY);
    return true;
  } catch {
    return false; // a sandbox that forbids it: the work still runs, at the priority it had
  }
}

/** Lowers the calling worker thread where a thread has a priority of its own (Linux); false elsewhere. */
export function lowerThisThread(platform: NodeJS.Platform = process.platform): boolean {
  if (platform !== 'linux') return false;
  return lowerThisProcess();
}
