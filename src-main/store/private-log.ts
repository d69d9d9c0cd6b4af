/**
 * A log file in the data dir written off the main thread's path: lines are appended in the order given, by one
 * asynchronous writer, to a file created 0600 in a folder created 0700 (private-files.ts).
 *
 * Why: every forwarded job appended to `logs/remote.log` with appendFileSync (an open, a write and a close on the
 * event loop per line). Here `append` only queues the line; lines queued while a write is under way go out together
 * in the next one. A failed write is reported to `onError` and its lines are dropped (a log must never fail the work
 * it describes); the next line tries again. `close()` resolves once every line appended before it is written.
 */
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './private-files.js';

export interface PrivateLog {
  /** Queues one line (a newline is added); returns at once. After close(), lines are dropped. */
  append(line: string): void;
  /** Resolves once every line appended so far is written (or reported failed) and the file is closed. */
  close(): Promise<void>;
}

export function createPrivateLog(path: string, onError: (error: unknown) => void): PrivateLog {
  let queued: string[] = [];
  let writing: Promise<void> | null = null;
  let closed = false;
  let file: FileHandle | null = null;

  async function writeQueued(): Promise<void> {
    while (queued.length > 0) {
      const text = queued.join('');
      queued = [];
      try {
        if (!file) {
          await mkdir(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
          file = await open(path, 'a', PRIVATE_FILE_MODE);
        }
        await file.appendFile(text);
      } catch (error) {
        const broken = file;
        file = null;
        await broken?.close().catch(() => undefined);
        onError(error);
      }
    }
  }

  function drain(): Promise<void> {
    writing ??= writeQueued().finally(() => {
      writing = null;
      // A line appended after the loop saw the queue empty, before this ran.
      if (queued.length > 0) void drain();
    });
    return writing;
  }

  return {
    append(line) {
      if (closed) return;
      queued.push(`${line}\n`);
      void drain();
    },
    async close() {
      closed = true;
      while (writing || queued.length > 0) await drain();
      const open = file;
      file = null;
      await open?.close().catch(() => undefined);
    },
  };
}
