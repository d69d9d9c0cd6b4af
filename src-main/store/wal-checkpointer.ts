/**
 * Moves SQLite's WAL checkpoints off the service thread.
 *
 * SQLite checkpoints automatically inside the COMMIT that takes the WAL past 1,000 pages, on the connection that
 * commits: it copies those pages into the database file and fsyncs it, which on a busy disk takes tens to hundreds of
 * milliseconds during which the service answers nobody. Megabyte revisions of one account's transcript edits did
 * that every few commits, and another account's polls waited (trust review 2; bench/hostile-neighbours.ts).
 *
 * So the service's connection has `wal_autocheckpoint = 0` and a worker thread with a connection of its own runs
 * PASSIVE checkpoints when the WAL has changed (wal-checkpoint-thread.ts). The writer rewinds the WAL by itself once
 * a checkpoint has caught up, so the file stays as small as before. If the thread cannot start or stops, the
 * connection's automatic checkpoint is switched back on: the WAL never grows without bound.
 */
import type { Worker } from 'node:worker_threads';
import { scriptEntry, startThread } from '../platform/script-entry.js';
import type { Db } from './db.js';
import type { CheckpointThreadData } from './wal-checkpoint-thread.js';
import { silentLog, type Log } from '../common/log.js';

/** SQLite's own default, restored when the thread is not there to checkpoint. */
const AUTOMATIC_CHECKPOINT_PAGES = 1000;
/** How often the thread looks at the WAL; a checkpoint copies at most this long's commits. */
export const CHECKPOINT_INTERVAL_MS = 1000;

export interface WalCheckpointer {
  /** Passes that copied frames so far (tests, benchmarks). */
  readonly checkpoints: number;
  /** Resolves at the next pass that leaves the whole WAL copied into the database file (tests). */
  nextCheckpoint(): Promise<void>;
  /** Stops the thread and gives checkpoints back to the connection (before it closes). */
  stop(): Promise<void>;
}

export interface WalCheckpointerOptions {
  intervalMs?: number;
  log?: Log;
}

/** Starts checkpointing `db` (open on `file`) in a thread; resolves once the thread's connection is open. */
export async function startWalCheckpointer(db: Db, file: string, options: WalCheckpointerOptions = {}): Promise<WalCheckpointer> {
  const log = options.log ?? silentLog;
  const data: CheckpointThreadData = { file, intervalMs: options.intervalMs ?? CHECKPOINT_INTERVAL_MS };
  let checkpoints = 0;
  let waiters: (() => void)[] = [];
  let stopped = false;
  let exited = false;
  const automatic = (): void => {
    if (db.open) db.pragma(`wal_autocheckpoint = ${AUTOMATIC_CHECKPOINT_PAGES}`);
  };

  const thread: Worker = startThread(scriptEntry('wal-checkpoint-thread', import.meta.url), { workerData: data });
  thread.unref();
  const ready = new Promise<boolean>((resolve) => {
    thread.on('message', (message: { ready?: true; checkpointed?: number; complete?: boolean; failed?: string }) => {
      if (message.ready) {
        if (db.open) db.pragma('wal_autocheckpoint = 0');
        resolve(true);
      } else if (message.checkpointed !== undefined) {
        checkpoints += 1;
        if (message.complete) {
          for (const wake of waiters) wake();
          waiters = [];
        }
      } else if (message.failed) {
        log.info(`database checkpoint failed (tried again at the next change): ${message.failed}`);
      }
    });
    thread.on('error', (error) => {
      automatic();
      if (!stopped) log.info(`the database's checkpoint thread stopped, checkpoints run on commit again: ${error.message}`);
      resolve(false);
    });
    thread.on('exit', () => {
      exited = true;
      automatic();
      resolve(false);
    });
  });
  await ready;

  return {
    get checkpoints() {
      return checkpoints;
    },
    nextCheckpoint: () => new Promise<void>((resolve) => waiters.push(resolve)),
    async stop() {
      if (stopped) return;
      stopped = true;
      if (!exited) {
        const gone = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
        // Held while it stops: a process whose last handle this is would otherwise exit before the thread has.
        thread.ref();
        thread.postMessage({ stop: true });
        await gone;
      }
      automatic();
    },
  };
}
