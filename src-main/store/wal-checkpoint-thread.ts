/**
 * The worker thread of wal-checkpointer.ts: a second connection to the database file whose only work is
 * `PRAGMA wal_checkpoint(PASSIVE)` — copying committed WAL frames into the database file and syncing it — so that
 * the fsyncs of a checkpoint happen here and not inside a COMMIT on the service thread.
 *
 * PASSIVE never waits for the writer and never makes it wait: it copies what no reader still needs and returns. It
 * runs every `intervalMs`; with nothing new in the WAL it reads the WAL's shared-memory index and does no I/O. Messages to the parent: `{ ready: true }` once open, `{ checkpointed: frames, complete }` after each
 * pass that copied frames (`complete`: the whole WAL is in the database file, so the next commit rewinds it).
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThisThread } from '../platform/background-priority.js';
import { electronAddonPath } from '../platform/native-addons.js';

export interface CheckpointThreadData {
  file: string;
  intervalMs: number;
}

interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

const { file, intervalMs } = workerData as CheckpointThreadData;
lowerThisThread();
const nativeBinding = electronAddonPath('better-sqlite3') ?? undefined;
const db = new Database(file, { fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
// A checkpoint that finds the checkpointer's lock taken (a closing connection's own checkpoint) skips this pass.
db.pragma('busy_timeout = 0');
const checkpoint = db.prepare<[], CheckpointResult>('PRAGMA wal_checkpoint(PASSIVE)');
/** Moves whenever another connection (the service's) has committed since this connection last looked. */
const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();

let lastVersion = dataVersion.get();
function pass(): void {
  if (!db.open) return;
  const version = dataVersion.get();
  if (version === lastVersion) return; // nothing committed since the last pass
  const result = checkpoint.get();
  if (!result || result.checkpointed === 0) return;
  // Only a complete pass settles this version: a partial one (a reader still on old frames) is retried next time.
  if (result.checkpointed === result.log) lastVersion = version;
  parentPort!.postMessage({ checkpointed: result.checkpointed, complete: result.checkpointed === result.log });
}

const timer = setInterval(() => {
  try {
    pass();
  } catch (error) {
    parentPort!.postMessage({ failed: (error as Error).message });
  }
}, intervalMs);

parentPort!.on('message', (message: { stop?: true }) => {
  if (!message.stop) return;
  clearInterval(timer);
  db.close();
  parentPort!.close();
});
parentPort!.postMessage({ ready: true });
