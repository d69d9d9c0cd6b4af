/**
 * The upload as mono Float32 blocks at a chosen rate. Denoisers should hear the full band of a 44.1/48 kHz
 * recording (RNNoise runs at 48 kHz) and "source" output should keep it, while audio/decode.ts always yields
 * 16 kHz for recognisers. With ffmpeg installed it decodes straight to the rate asked; without it, decode.ts's
 * 16 kHz blocks are resampled up (the band above 8 kHz is then lost — said in the README).
 */
import { spawn } from 'node:child_process';
import { JobError } from '../../common/errors.js';
import { ASR_SAMPLE_RATE, decodeBlocks, findFfmpeg } from '../audio/decode.js';
import { createStreamResampler } from './stream-resampler.js';

export interface BlockOptions {
  rate: number;
  blockSamples: number;
  signal: AbortSignal;
}

export function cancelledError(): JobError {
  return new JobError('cancelled', 'the job was cancelled');
}

export async function* sourceBlocks(file: string, options: BlockOptions): AsyncGenerator<Float32Array> {
  const ffmpeg = options.rate === ASR_SAMPLE_RATE ? null : findFfmpeg();
  const source = ffmpeg ? ffmpegBlocks(ffmpeg, file, options) : resampledBlocks(file, options);
  yield* reblock(source, options.blockSamples);
}

async function* resampledBlocks(file: string, options: BlockOptions): AsyncGenerator<Float32Array> {
  const resampler = await createStreamResampler(ASR_SAMPLE_RATE, options.rate);
  try {
    for await (const block of decodeBlocks(file, { signal: options.signal, blockSamples: options.blockSamples })) {
      yield resampler.push(block);
    }
    yield resampler.finish();
  } finally {
    resampler.release?.();
  }
}

async function* ffmpegBlocks(ffmpeg: string, file: string, options: BlockOptions): AsyncGenerator<Float32Array> {
  const { signal } = options;
  if (signal.aborted) throw cancelledError();
  const args = ['-nostdin', '-v', 'error', '-i', file, '-vn', '-f', 'f32le', '-ac', '1', '-ar', String(options.rate), 'pipe:1'];
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
  signal.addEventListener('abort', onAbort, { once: true });
  let carry = Buffer.alloc(0);
  try {
    for await (const data of child.stdout as AsyncIterable<Buffer>) {
      if (signal.aborted) throw cancelledError();
      const bytes = carry.length ? Buffer.concat([carry, data]) : data;
      const whole = bytes.length - (bytes.length % 4);
      carry = Buffer.from(bytes.subarray(whole));
      if (whole > 0) {
        // Copy: pipe buffers are pooled and need not be 4-byte aligned.
        const samples = new Float32Array(whole / 4);
        new Uint8Array(samples.buffer).set(bytes.subarray(0, whole));
        yield samples;
      }
    }
    const { code, error } = await exited;
    if (signal.aborted) throw cancelledError();
    if (error) throw new JobError('audio_decode_failed', `ffmpeg could not be started: ${error.message}`, { cause: error });
    if (code !== 0) {
      const detail = stderr.trim().split('\n').slice(-3).join(' ').replace(`${file}: `, '');
      throw new JobError('audio_decode_failed', `the file could not be decoded as audio (${detail || `ffmpeg exit ${code}`})`);
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/** Regroups chunks into blocks of `size` samples (the last may be shorter). */
async function* reblock(source: AsyncIterable<Float32Array>, size: number): AsyncGenerator<Float32Array> {
  let block = new Float32Array(size);
  let filled = 0;
  for await (const chunk of source) {
    for (let offset = 0; offset < chunk.length; ) {
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
