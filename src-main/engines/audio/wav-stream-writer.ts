/**
 * Writes 16-bit mono PCM to a WAV file as it arrives (a live session's recording), never holding it in memory: the
 * header is written first with empty sizes and filled in by finish(). Files are created 0600 (the data dir is
 * private). A file left unfinished by a crash still has a valid header with a zero size.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pcm16WavHeader, WAV_HEADER_BYTES } from './wav-header.js';


export class WavStreamWriter {
  private readonly out: WriteStream;
  private bytes = 0;
  private failed: Error | null = null;

  constructor(
    readonly path: string,
    readonly sampleRate: number,
  ) {
    this.out = createWriteStream(path, { mode: 0o600 });
    this.out.on('error', (error) => (this.failed = error));
    this.out.write(pcm16WavHeader(sampleRate, 1, 0));
  }

  /** Bytes of PCM written so far. */
  get dataBytes(): number {
    return this.bytes;
  }

  /** Appends little-endian PCM16 (an even number of bytes). */
  write(pcm: Uint8Array): void {
    if (this.failed) return;
    this.bytes += pcm.byteLength;
    this.out.write(pcm);
  }

  /** Closes the file with its sizes filled in; rejects when any write failed (disk full). */
  async finish(): Promise<void> {
    await new Promise<void>((resolve) => this.out.end(resolve));
    if (this.failed) throw this.failed;
    const file = await open(this.path, 'r+');
    try {
      await file.write(pcm16WavHeader(this.sampleRate, 1, this.bytes), 0, WAV_HEADER_BYTES, 0);
    } finally {
      await file.close();
    }
  }

  /** Stops writing (the caller deletes the file). */
  abort(): void {
    this.out.destroy();
  }
}
