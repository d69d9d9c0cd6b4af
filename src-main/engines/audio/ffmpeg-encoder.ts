/**
 * Opus (Ogg), AAC (ADTS) and FLAC through the system's ffmpeg, streamed: 16-bit PCM goes in on stdin as it is
 * synthesised and the container comes out on stdout packet by packet (`-flush_packets 1`, short Ogg pages), so the
 * first bytes leave long before the text is done. ffmpeg writes to a pipe, so it never goes back to patch headers:
 * FLAC's STREAMINFO leaves the total sample count unknown, which decoders accept.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { JobError } from '../../common/errors.js';
import type { EncodedSink } from './encoded-sink.js';
import type { FormatEncoder } from './format-encoder.js';
import { floatToS16le } from './pcm.js';

/** The formats this module makes. */
export type FfmpegFormat = 'opus' | 'aac' | 'flac';

/** Ogg page length for Opus (µs): short pages so a sentence's audio is sent as soon as it is encoded. Default 100 ms. */
export const OGG_PAGE_MICROSECONDS = 100_000;
/** Bit rates per channel (kbit/s): transparent for speech at these codecs' strengths. */
export const OPUS_KBPS_PER_CHANNEL = 32;
export const AAC_KBPS_PER_CHANNEL = 64;

function codecArgs(format: FfmpegFormat, channels: number): string[] {
  switch (format) {
    case 'opus':
      return ['-c:a', 'libopus', '-b:a', `${OPUS_KBPS_PER_CHANNEL * channels}k`, '-ar', '48000', '-page_duration', String(OGG_PAGE_MICROSECONDS), '-f', 'ogg'];
    case 'aac':
      return ['-c:a', 'aac', '-b:a', `${AAC_KBPS_PER_CHANNEL * channels}k`, '-f', 'adts'];
    case 'flac':
      return ['-c:a', 'flac', '-f', 'flac'];
  }
}

export function createFfmpegEncoder(ffmpeg: string, format: FfmpegFormat, sampleRate: number, channels: number, sink: EncodedSink): FormatEncoder {
  // Raw PCM needs no probing: without these ffmpeg reads seconds of input before it encodes anything.
  const args = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-probesize', '32', '-analyzeduration', '0', '-f', 's16le', '-ar', String(sampleRate), '-ac', String(channels), '-i', 'pipe:0'];
  args.push(...codecArgs(format, channels), '-flush_packets', '1', 'pipe:1');
  const child: ChildProcessWithoutNullStreams = spawn(ffmpeg, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let position = 0;
  let stderr = '';
  let failure: Error | null = null;
  child.stdout.on('data', (chunk: Buffer) => {
    sink(chunk, position);
    position += chunk.length;
  });
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < 4000) stderr += chunk.toString();
  });
  // EPIPE when ffmpeg exits early: the exit code below tells why.
  child.stdin.on('error', () => {});
  const exited = new Promise<void>((resolve) => {
    child.on('error', (error) => {
      failure = new JobError('engine_failed', `ffmpeg could not start: ${error.message}`, { cause: error });
      resolve();
    });
    child.on('close', (code, signal) => {
      if (!failure && code !== 0) failure = new JobError('engine_failed', `ffmpeg could not encode ${format} (${signal ?? `exit ${code}`}): ${stderr.trim()}`);
      resolve();
    });
  });

  return {
    async write(interleaved) {
      if (failure) throw failure;
      if (!child.stdin.write(floatToS16le(interleaved))) {
        await new Promise<void>((resolve) => {
          child.stdin.once('drain', resolve);
          void exited.then(resolve);
        });
      }
      if (failure) throw failure;
    },
    async end() {
      child.stdin.end();
      await exited;
      if (failure) throw failure;
    },
    abort() {
      child.kill('SIGKILL');
    },
  };
}
