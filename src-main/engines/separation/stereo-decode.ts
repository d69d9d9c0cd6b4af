/**
 * Any recording → two channels of Float32 at one rate, in blocks of a fixed number of frames: what stem separation
 * needs (audio/decode.ts gives the recognizers' mono). A mono source gives the same samples on both channels; more
 * than two channels are mixed down to two by ffmpeg. Debian's ffmpeg decodes when installed; otherwise the WASM
 * `audio-decode` package (wav/mp3/flac/ogg/opus/m4a/webm), as for mono decoding.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { JobError, jobCancelled } from '../../common/errors.js';
import type { BlockProcessor } from '../audio/block-processor.js';
import { ffmpegFrames, findFfmpeg, sniffFileFormat } from '../audio/decode.js';
import { createStreamResampler } from '../audio/stream-resampler.js';

/** A block of two equal-length channels. */
export type StereoBlock = [Float32Array, Float32Array];

export interface StereoDecodeOptions {
  rate: number;
  /** Frames per yielded block (the last may be shorter). */
  blockFrames: number;
  signal?: AbortSignal;
  /** Default 'auto': ffmpeg when found, else the WASM decoders. */
  decoder?: 'auto' | 'ffmpeg' | 'wasm';
}

export async function* decodeStereoBlocks(file: string, options: StereoDecodeOptions): AsyncGenerator<StereoBlock> {
  const size = await stat(file).then((s) => s.size, (cause: Error) => {
    throw new JobError('audio_decode_failed', `cannot read the audio file: ${cause.message}`, { cause });
  });
  if (size === 0) throw new JobError('audio_decode_failed', 'the audio file is empty (0 bytes)');
  const ffmpeg = options.decoder === 'wasm' ? null : findFfmpeg();
  if (options.decoder === 'ffmpeg' && !ffmpeg) throw new JobError('audio_decode_failed', 'ffmpeg is not installed');
  const source = ffmpeg ? ffmpegStereo(ffmpeg, file, options.rate, options.signal) : wasmStereo(file, options.rate, options.signal);
  yield* reblockStereo(source, options.blockFrames);
}

async function* reblockStereo(source: AsyncIterable<StereoBlock>, size: number): AsyncGenerator<StereoBlock> {
  let block: StereoBlock = [new Float32Array(size), new Float32Array(size)];
  let filled = 0;
  for await (const [left, right] of source) {
    let offset = 0;
    while (offset < left.length) {
      const n = Math.min(size - filled, left.length - offset);
      block[0].set(left.subarray(offset, offset + n), filled);
      block[1].set(right.subarray(offset, offset + n), filled);
      filled += n;
      offset += n;
      if (filled === size) {
        yield block;
        block = [new Float32Array(size), new Float32Array(size)];
        filled = 0;
      }
    }
  }
  if (filled > 0) yield [block[0].slice(0, filled), block[1].slice(0, filled)];
}

/** Splits interleaved L R L R … samples. */
export function deinterleave(samples: Float32Array): StereoBlock {
  const n = samples.length >> 1;
  const left = new Float32Array(n);
  const right = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    left[i] = samples[2 * i]!;
    right[i] = samples[2 * i + 1]!;
  }
  return [left, right];
}

async function* ffmpegStereo(ffmpeg: string, file: string, rate: number, signal?: AbortSignal): AsyncGenerator<StereoBlock> {
  for await (const samples of ffmpegFrames(ffmpeg, file, rate, 2, signal)) yield deinterleave(samples);
}

/** Two channels of a decoded chunk: mono twice, stereo as is, more mixed down (odd channels left, even right). */
function toStereo(channels: Float32Array[]): StereoBlock {
  const first = channels[0] ?? new Float32Array(0);
  if (channels.length <= 1) return [first, first];
  if (channels.length === 2) return [first, channels[1]!];
  const left = new Float32Array(first.length);
  const right = new Float32Array(first.length);
  channels.forEach((channel, c) => {
    const target = c % 2 === 0 ? left : right;
    const share = 1 / Math.ceil((channels.length - (c % 2)) / 2);
    for (let i = 0; i < target.length; i++) target[i]! += (channel[i] ?? 0) * share;
  });
  return [left, right];
}

async function* wasmStereo(file: string, rate: number, signal?: AbortSignal): AsyncGenerator<StereoBlock> {
  const format = await sniffFileFormat(file);
  let resamplers: [BlockProcessor, BlockProcessor] | null = null;
  let sourceRate = 0;
  const flush = (): StereoBlock | null => (resamplers ? [resamplers[0].finish(), resamplers[1].finish()] : null);
  try {
    const { default: decodeChunked } = await import('audio-decode/stream');
    for await (const data of decodeChunked(createReadStream(file, { highWaterMark: 1 << 16 }), format)) {
      if (signal?.aborted) throw jobCancelled();
      if (data.sampleRate !== sourceRate) {
        const rest = flush();
        if (rest) yield rest;
        sourceRate = data.sampleRate;
        resamplers = [await createStreamResampler(sourceRate, rate), await createStreamResampler(sourceRate, rate)];
      }
      const [left, right] = toStereo(data.channelData);
      const out: StereoBlock = [resamplers![0].push(left), resamplers![1].push(right)];
      if (out[0].length > 0) yield equalLength(out);
    }
    const rest = flush();
    resamplers = null;
    if (rest) yield equalLength(rest);
  } catch (cause) {
    if (cause instanceof JobError) throw cause;
    throw new JobError('audio_decode_failed', `the ${format} file could not be decoded: ${(cause as Error).message}`, { cause });
  } finally {
    resamplers?.[0].release?.();
    resamplers?.[1].release?.();
  }
}

/** Two resamplers fed the same lengths give the same lengths; this only guards the invariant. */
function equalLength([left, right]: StereoBlock): StereoBlock {
  const n = Math.min(left.length, right.length);
  return [left.subarray(0, n), right.subarray(0, n)];
}
