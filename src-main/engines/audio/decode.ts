/**
 * Any recording → mono Float32 (16 kHz for recognizers, or the rate a caller asks for), streamed in blocks so that a
 * two-hour file never sits in memory as one array. Debian's `ffmpeg` (when on PATH) decodes everything, video containers included; without it the WASM
 * `audio-decode` package streams wav/mp3/flac/ogg/opus/m4a/webm.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, createReadStream } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { access, open, stat } from 'node:fs/promises';
import { jobCancelled, JobError } from '../../common/errors.js';
import type { BlockProcessor } from './block-processor.js';
import { createStreamResampler } from './stream-resampler.js';

/** Sample rate every recognizer here consumes. */
export const ASR_SAMPLE_RATE = 16_000;
/** Default block length handed to consumers: 5 s at 16 kHz (320 KB). */
export const DEFAULT_BLOCK_SAMPLES = 5 * ASR_SAMPLE_RATE;

export interface DecodeOptions {
  /** Aborting stops the decoder (kills ffmpeg) and rejects with JobError('cancelled'). Default: none. */
  signal?: AbortSignal;
  /** Samples per yielded block (the last one may be shorter). Default DEFAULT_BLOCK_SAMPLES. */
  blockSamples?: number;
  /** Which decoder to use. Default 'auto': ffmpeg when found (see findFfmpeg), else 'wasm'. */
  decoder?: 'auto' | 'ffmpeg' | 'wasm';
  /**
   * Rate of the yielded samples. Default ASR_SAMPLE_RATE; denoisers ask for the full band (48 kHz for RNNoise) so a
   * 44.1/48 kHz recording keeps it.
   */
  sampleRate?: number;
}

/**
 * ffmpeg's path, or null. `VOXDESK_FFMPEG` overrides (a path, or `none` to force the WASM decoder); default: the
 * first `ffmpeg` on PATH.
 */
export function findFfmpeg(): string | null {
  return findExecutable('ffmpeg', process.env.VOXDESK_FFMPEG);
}

/** Decodes `file` to mono Float32 blocks. Corrupt or non-audio input → JobError('audio_decode_failed'). */
export async function* decodeBlocks(file: string, options: DecodeOptions = {}): AsyncGenerator<Float32Array> {
  const blockSamples = options.blockSamples ?? DEFAULT_BLOCK_SAMPLES;
  const rate = options.sampleRate ?? ASR_SAMPLE_RATE;
  await assertReadable(file);
  const choice = options.decoder ?? 'auto';
  const ffmpeg = choice === 'wasm' ? null : findFfmpeg();
  if (choice === 'ffmpeg' && !ffmpeg) throw new JobError('audio_decode_failed', 'ffmpeg is not installed');
  const source = ffmpeg ? ffmpegFrames(ffmpeg, file, rate, 1, options.signal) : wasmSamples(file, rate, options.signal);
  yield* reblock(source, blockSamples);
}

async function assertReadable(file: string): Promise<void> {
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch (cause) {
    throw new JobError('audio_decode_failed', `cannot read the audio file: ${(cause as Error).message}`, { cause });
  }
  if (size === 0) throw new JobError('audio_decode_failed', 'the audio file is empty (0 bytes)');
}


/** Regroups arbitrary chunks into blocks of exactly `size` samples (the last may be shorter). */
async function* reblock(source: AsyncIterable<Float32Array>, size: number): AsyncGenerator<Float32Array> {
  let block = new Float32Array(size);
  let filled = 0;
  for await (const chunk of source) {
    let offset = 0;
    while (offset < chunk.length) {
      const n = Math.min(size - filled, chunk.length - offset);
      block.set(chunk.subarray(offset, offset + n), filled);
      filled += n;
      offset += n;
      if (filled === size) {
        yield block;
        block = new Float32Array(size);
        filled = 0;
      }
    }
  }
  if (filled > 0) yield block.slice(0, filled);
}

/**
 * ffmpeg's decode of `file` as interleaved Float32 samples at `rate` on `channels` channels (ffmpeg mixes or copies
 * channels as needed), in chunks of whole frames: the one ffmpeg reader of the mono (here) and stereo
 * (separation/stereo-decode.ts) decoders. Aborting kills ffmpeg and rejects with JobError('cancelled').
 */
export async function* ffmpegFrames(ffmpeg: string, file: string, rate: number, channels: number, signal?: AbortSignal): AsyncGenerator<Float32Array> {
  if (signal?.aborted) throw jobCancelled();
  const args = ['-nostdin', '-v', 'error', '-i', file, '-vn', '-f', 'f32le', '-ac', String(channels), '-ar', String(rate), 'pipe:1'];
  const child = spawn(ffmpeg, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    if (stderr.length < 4000) stderr += text;
  });
  const exited = new Promise<{ code: number | null; error?: Error }>((resolve) => {
    child.once('error', (error) => resolve({ code: null, error }));
    child.once('close', (code) => resolve({ code }));
  });
  const onAbort = (): void => void child.kill('SIGKILL');
  signal?.addEventListener('abort', onAbort, { once: true });
  const frameBytes = 4 * channels;
  let carry: Buffer = Buffer.alloc(0);
  try {
    for await (const data of child.stdout as AsyncIterable<Buffer>) {
      if (signal?.aborted) throw jobCancelled();
      const bytes: Buffer = carry.length ? Buffer.concat([carry, data]) : data;
      const whole = bytes.length - (bytes.length % frameBytes);
      carry = Buffer.from(bytes.subarray(whole));
      if (whole > 0) {
        // Copy: the pipe's Buffer may not be 4-byte aligned, and is reused by Node's pool.
        const samples = new Float32Array(whole / 4);
        new Uint8Array(samples.buffer).set(bytes.subarray(0, whole));
        yield samples;
      }
    }
    const { code, error } = await exited;
    if (signal?.aborted) throw jobCancelled();
    if (error) throw new JobError('audio_decode_failed', `ffmpeg could not be started: ${error.message}`, { cause: error });
    if (code !== 0) {
      const detail = stderr.trim().split('\n').slice(-3).join(' ').replace(`${file}: `, '');
      throw new JobError('audio_decode_failed', `the file could not be decoded as audio (${detail || `ffmpeg exit ${code}`})`);
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

type WasmFormat = 'wav' | 'mp3' | 'flac' | 'opus' | 'oga' | 'm4a' | 'webm';

/** Container sniffing from the first bytes (the WASM decoders need the format up front). */
export function sniffFormat(head: Uint8Array): WasmFormat | null {
  const ascii = (from: number, to: number): string => String.fromCharCode(...head.subarray(from, to));
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return 'wav';
  if (ascii(0, 4) === 'fLaC') return 'flac';
  if (ascii(0, 4) === 'OggS') return ascii(0, Math.min(head.length, 200)).includes('OpusHead') ? 'opus' : 'oga';
  if (ascii(4, 8) === 'ftyp') return 'm4a';
  if (head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) return 'webm';
  if (ascii(0, 3) === 'ID3') return 'mp3';
  if (head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0) return 'mp3';
  return null;
}

/** The container of a file the WebAssembly decoders read, from its first bytes; JobError audio_decode_failed if none. */
export async function sniffFileFormat(file: string): Promise<WasmFormat> {
  const handle = await open(file, 'r');
  const head = new Uint8Array(256);
  try {
    await handle.read(head, 0, head.length, 0);
  } finally {
    await handle.close();
  }
  const format = sniffFormat(head);
  if (!format) {
    throw new JobError('audio_decode_failed', 'the file is not a recognised audio format (wav, mp3, flac, ogg, opus, m4a, webm; install ffmpeg for more)');
  }
  return format;
}

async function* wasmSamples(file: string, rate: number, signal?: AbortSignal): AsyncGenerator<Float32Array> {
  const format = await sniffFileFormat(file);
  // One resampler across the whole stream (no seams between decoded frames); a new one if the source rate changes.
  let resampler: BlockProcessor | undefined;
  let sourceRate = 0;
  try {
    // Loaded on first use: a service that never decodes without ffmpeg does not hold its WebAssembly decoders.
    const { default: decodeChunked } = await import('audio-decode/stream');
    for await (const data of decodeChunked(createReadStream(file, { highWaterMark: 1 << 16 }), format)) {
      if (signal?.aborted) throw jobCancelled();
      if (data.sampleRate !== sourceRate) {
        if (resampler) yield resampler.finish();
        sourceRate = data.sampleRate;
        resampler = await createStreamResampler(sourceRate, rate);
      }
      const out = resampler!.push(downmix(data.channelData));
      if (out.length > 0) yield out;
    }
    if (resampler) yield resampler.finish();
  } catch (cause) {
    if (cause instanceof JobError) throw cause;
    throw new JobError('audio_decode_failed', `the ${format} file could not be decoded: ${(cause as Error).message}`, { cause });
  } finally {
    resampler?.release?.();
  }
}

function downmix(channels: Float32Array[]): Float32Array {
  const first = channels[0];
  if (!first) return new Float32Array(0);
  if (channels.length === 1) return first;
  const out = new Float32Array(first.length);
  for (const channel of channels) for (let i = 0; i < out.length; i++) out[i]! += (channel[i] ?? 0) / channels.length;
  return out;
}


/**
 * The path of `name` on PATH, or null. `override` (usually an environment variable) wins: an absolute path is used
 * as is when executable, `none` disables the program.
 */
export function findExecutable(name: string, override?: string): string | null {
  for (const candidate of executableCandidates(name, override)) if (isExecutable(candidate)) return candidate;
  return null;
}

/** findExecutable without blocking the thread (the checks run on libuv's pool): for looks that are not urgent. */
export async function findExecutableAsync(name: string, override?: string): Promise<string | null> {
  for (const candidate of executableCandidates(name, override)) {
    if (await access(candidate, constants.X_OK).then(() => true, () => false)) return candidate;
  }
  return null;
}

/** The paths findExecutable tries, in order. */
function executableCandidates(name: string, override?: string): string[] {
  if (override === 'none') return [];
  if (override && isAbsolute(override)) return [override];
  return (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => dir !== '')
    .map((dir) => join(dir, process.platform === 'win32' ? `${name}.exe` : name));
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
