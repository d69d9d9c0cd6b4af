/**
 * Where a streaming encoder's bytes go. Encoders write in order, except containers that go back at the end to fill
 * in sizes (WAV's RIFF/data lengths, FLAC's STREAMINFO): those late writes carry an earlier `position`. A stream
 * to a client forwards only the in-order bytes (a client cannot be sent a correction); a file applies every write.
 */
import { open, type FileHandle } from 'node:fs/promises';

/** Receives encoded bytes; `position` is the byte offset in the finished file. */
export type EncodedSink = (bytes: Uint8Array, position: number) => void;

/**
 * Appends in-order writes to a file and applies late writes (header fix-ups) at their position. The file opens in
 * the background: the first audio need not wait for the disk.
 */
export class EncodedFileWriter {
  private readonly handle: Promise<FileHandle>;
  private pending: Promise<unknown>;
  private failed: Error | null = null;
  /** Bytes written in order so far. */
  length = 0;

  constructor(path: string) {
    this.handle = open(path, 'w');
    this.pending = this.handle.catch((error: Error) => {
      this.failed = error;
    });
  }

  /** The sink to hand to an encoder: writes are queued in call order. */
  readonly sink: EncodedSink = (bytes, position) => {
    const copy = Uint8Array.from(bytes);
    if (position >= this.length) this.length = position + copy.length;
    this.pending = this.pending.then(async () => {
      if (this.failed) return;
      try {
        await (await this.handle).write(copy, 0, copy.length, position);
      } catch (error) {
        this.failed = error as Error;
      }
    });
  };

  /** Waits for the queued writes and closes the file; rejects with the first write error. */
  async close(): Promise<void> {
    await this.pending;
    if (!this.failed) await (await this.handle).close();
    else await this.handle.then((h) => h.close()).catch(() => undefined);
    if (this.failed) throw this.failed;
  }
}

/** Forwards only the bytes that extend the stream (late header fix-ups are dropped). */
export function inOrderOnly(forward: (bytes: Uint8Array) => void): EncodedSink {
  let sent = 0;
  return (bytes, position) => {
    if (position !== sent) return;
    sent += bytes.length;
    if (bytes.length > 0) forward(bytes);
  };
}
