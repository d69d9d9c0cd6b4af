/**
 * Copies an import plan (import-plan.ts) into a staging folder with streams: the event loop stays free (HTTP and the
 * live WebSocket keep answering while gigabytes are copied), progress is reported as bytes, and an abort stops it
 * between chunks. Each source is opened without following a final link and must still be a regular file, so a file
 * swapped for a link after the walk is not read through it. Copies are private: folders 0700, files 0600.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { OPEN_NO_FOLLOW, type ImportPlan } from './import-plan.js';
import { PackageError } from '../../common/errors.js';

export interface CopyOptions {
  signal: AbortSignal;
  /** Called with the bytes copied so far (every chunk). */
  onProgress(bytesDone: number): void;
}

export async function copyPlan(plan: ImportPlan, dest: string, options: CopyOptions): Promise<void> {
  await mkdir(dest, { recursive: true, mode: 0o700 });
  for (const dir of plan.dirs) await mkdir(join(dest, dir), { recursive: true, mode: 0o700 });
  let done = 0;
  for (const file of plan.files) {
    options.signal.throwIfAborted();
    let handle;
    try {
      handle = await open(file.source, OPEN_NO_FOLLOW);
    } catch (cause) {
      throw new PackageError('import_failed', `could not read ${file.rel}: ${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message}`, { cause });
    }
    if (!(await handle.stat()).isFile()) {
      await handle.close();
      throw new PackageError('import_failed', `${file.rel} changed while it was being imported (it is no longer a regular file)`);
    }
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        done += chunk.length;
        options.onProgress(done);
        callback(null, chunk);
      },
    });
    try {
      await pipeline(
        createReadStream('', { fd: handle, autoClose: true }),
        counter,
        createWriteStream(join(dest, file.rel), { flags: 'wx', mode: 0o600 }),
        { signal: options.signal },
      );
    } catch (cause) {
      if (options.signal.aborted) throw options.signal.reason;
      throw new PackageError('import_failed', `could not copy ${file.rel}: ${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message}`, { cause });
    } finally {
      await handle.close().catch(() => undefined);
    }
  }
}
