/**
 * Writes 16-bit PCM to a file block by block: a WAV (header first, sizes patched on close) or raw s16le. Memory stays
 * at one block however long the audio is.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { floatToS16le } from '../audio/pcm.js';
import type { DenoiseOutputFormat } from './denoise-params.js';

const WAV_HEADER_BYTES = 44;

export class PcmStreamWriter {
  private frames = 0;

  private constructor(
    private readonly handle: FileHandle,
    readonly format: DenoiseOutputFormat,
    readonly sampleRate: number,
    readonly channels: 1 | 2,
  ) {}

  static async create(path: string, format: DenoiseOutputFormat, sampleRate: number, channels: 1 | 2): Promise<PcmStreamWriter> {
    const handle = await open(path, 'w');
    const writer = new PcmStreamWriter(handle, format, sampleRate, channels);
    if (format === 'wav') await handle.write(writer.header(0));
    return writer;
  }

  /** Appends mono samples (-1..1, clipped), repeated on each output channel. */
  async write(mono: Float32Array): Promise<void> {
    if (mono.length === 0) return;
    let samples = mono;
    if (this.channels === 2) {
      samples = new Float32Array(mono.length * 2);
      for (let i = 0; i < mono.length; i++) samples[2 * i] = samples[2 * i + 1] = mono[i]!;
    }
    await this.handle.write(floatToS16le(samples));
    this.frames += mono.length;
  }

  /** Appends frames already interleaved for this writer's channels (L R L R … when stereo). */
  async writeInterleaved(samples: Float32Array): Promise<void> {
    if (samples.length === 0) return;
    await this.handle.write(floatToS16le(samples));
    this.frames += Math.floor(samples.length / this.channels);
  }

  get durationSeconds(): number {
    return this.frames / this.sampleRate;
  }

  get contentType(): string {
    return this.format === 'wav' ? 'audio/wav' : `audio/pcm;rate=${this.sampleRate};channels=${this.channels};encoding=s16le`;
  }

  async close(): Promise<void> {
    try {
      if (this.format === 'wav') await this.handle.write(this.header(this.frames * this.channels * 2), 0, WAV_HEADER_BYTES, 0);
    } finally {
      await this.handle.close();
    }
  }

  /** Closes without finishing the header (cancelled or failed jobs; the job engine discards workDir). */
  async abandon(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }

  private header(dataBytes: number): Buffer {
    const h = Buffer.alloc(WAV_HEADER_BYTES);
    h.write('RIFF', 0, 'ascii');
    h.writeUInt32LE(Math.min(0xffffffff, 36 + dataBytes), 4);
    h.write('WAVE', 8, 'ascii');
    h.write('fmt ', 12, 'ascii');
    h.writeUInt32LE(16, 16);
    h.writeUInt16LE(1, 20); // PCM
    h.writeUInt16LE(this.channels, 22);
    h.writeUInt32LE(this.sampleRate, 24);
    h.writeUInt32LE(this.sampleRate * this.channels * 2, 28);
    h.writeUInt16LE(this.channels * 2, 32);
    h.writeUInt16LE(16, 34);
    h.write('data', 36, 'ascii');
    h.writeUInt32LE(Math.min(0xffffffff, dataBytes), 40);
    return h;
  }
}
