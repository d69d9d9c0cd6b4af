/**
 * A capture's recording, durable in chunks (docs/capture.md): a WAV file of PCM16 whose samples are kept in memory
 * only until a chunk's worth (2 s by default) has come, then appended, the header's sizes brought up to date and the
 * file synced to disk, together with the journal of what was said (capture-journal.ts). So the file on disk is a valid
 * WAV holding every committed chunk at any moment: a crash, a SIGKILL or a power cut loses at most the chunk that was
 * still in memory, and recoverRecording() makes a left file whole (its header from its size) for the next start.
 * Files are created 0600 (the data dir is private).
 */
import { closeSync, fdatasyncSync, fstatSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';
import { pcm16WavHeader, WAV_HEADER_BYTES } from '../audio/wav-header.js';


/** How much audio is kept in memory before it is committed. Default 2 s. */
export const DEFAULT_CHUNK_SECONDS = 2;

export interface ChunkedRecordingOptions {
  sampleRate: number;
  channels: number;
  chunkSeconds?: number;
  /** Called after each commit, before the file is synced: what must be durable with this chunk (the journal) writes here. */
  beforeSync?(): void;
}

export class ChunkedRecording {
  private fd: number | null;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private committed = 0;
  private readonly chunkBytes: number;
  private readonly frameBytes: number;

  constructor(
    readonly path: string,
    private readonly options: ChunkedRecordingOptions,
  ) {
    this.frameBytes = options.channels * 2;
    this.chunkBytes = Math.round((options.chunkSeconds ?? DEFAULT_CHUNK_SECONDS) * options.sampleRate) * this.frameBytes;
    this.fd = openSync(path, 'wx', 0o600);
    writeSync(this.fd, pcm16WavHeader(options.sampleRate, options.channels, 0), 0, WAV_HEADER_BYTES, 0);
    fdatasyncSync(this.fd);
  }

  /** Bytes of samples on disk. */
  get committedBytes(): number {
    return this.committed;
  }

  /** Bytes of samples received (on disk or waiting for their chunk). */
  get receivedBytes(): number {
    return this.committed + this.pendingBytes;
  }

  /** Interleaved PCM16 frames; commits each time a chunk is full. Throws when the disk refuses (full, gone). */
  append(frames: Buffer): void {
    if (this.fd === null) throw new Error('the recording is closed');
    this.pending.push(frames);
    this.pendingBytes += frames.length;
    if (this.pendingBytes >= this.chunkBytes) this.commit();
  }

  /** Writes what is in memory and syncs it (with the header's sizes): everything received so far is durable. */
  commit(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    if (this.pendingBytes > 0) {
      const data = Buffer.concat(this.pending);
      this.pending = [];
      this.pendingBytes = 0;
      let at = 0;
      while (at < data.length) at += writeSync(fd, data, at, data.length - at, WAV_HEADER_BYTES + this.committed + at);
      this.committed += data.length;
      writeSync(fd, pcm16WavHeader(this.options.sampleRate, this.options.channels, this.committed), 0, WAV_HEADER_BYTES, 0);
    }
    this.options.beforeSync?.();
    fdatasyncSync(fd);
  }

  /** Commits the rest and closes the file. */
  finish(): void {
    this.commit();
    this.close();
  }

  /** Closes without writing what is in memory (the caller deletes the file). */
  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
  }
}

/**
 * Makes a recording left by a crash whole: cuts a partly written frame at its end and writes the header's sizes from
 * what the file holds. Returns the bytes of samples it holds (0 when there is no usable header).
 */
export function recoverRecording(path: string, channels: number): number {
  const fd = openSync(path, 'r+');
  try {
    const head = Buffer.alloc(WAV_HEADER_BYTES);
    if (readSync(fd, head, 0, WAV_HEADER_BYTES, 0) < WAV_HEADER_BYTES || head.toString('ascii', 0, 4) !== 'RIFF') return 0;
    const sampleRate = head.readUInt32LE(24);
    const frame = channels * 2;
    const data = Math.max(0, fstatSync(fd).size - WAV_HEADER_BYTES);
    const whole = data - (data % frame);
    if (whole !== data) ftruncateSync(fd, WAV_HEADER_BYTES + whole);
    writeSync(fd, pcm16WavHeader(sampleRate, channels, whole), 0, WAV_HEADER_BYTES, 0);
    fdatasyncSync(fd);
    return whole;
  } finally {
    closeSync(fd);
  }
}
