/**
 * A file's content fingerprint (sha256, streamed: a 500 MB recording is never read into memory) — what tells a
 * renamed copy of a recording from a new one.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';

/** Hex sha256 of the file's bytes. Rejects when the file cannot be read. */
export async function sha256OfFile(path: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path, { highWaterMark: 1 << 20 }), hash, signal ? { signal } : {});
  return hash.digest('hex');
}
