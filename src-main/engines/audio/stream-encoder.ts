/**
 * Generated speech → the requested container, as a stream: mono Float32 at the engine's rate goes in sentence by
 * sentence, is resampled (one Speex filter across the whole stream), copied to the requested channels and encoded;
 * bytes reach the sink as soon as the codec makes them. Both a job's artifact and a streamed HTTP answer are made
 * this way, so the bytes a client hears while the text is spoken are the bytes of the job's file.
 *
 * Who encodes what: WAV, PCM and MP3 in JS (always); Opus and FLAC with ffmpeg when it is on PATH (see decode.ts's
 * findFfmpeg), else libav.js in WebAssembly; AAC only with ffmpeg (no published WASM build has an AAC encoder).
 */
import { JobError } from '../../common/errors.js';
import type { BlockProcessor } from './block-processor.js';
import { findFfmpeg } from './decode.js';
import type { EncodedSink } from './encoded-sink.js';
import { createFfmpegEncoder } from './ffmpeg-encoder.js';
import { createMp3Encoder, createPcmEncoder, type FormatEncoder } from './format-encoder.js';
import { createLibavEncoder } from './libav-encoder.js';
import { interleave } from './pcm.js';
import { createStreamResampler } from './stream-resampler.js';

export const OUTPUT_FORMATS = ['wav', 'pcm', 'mp3', 'opus', 'aac', 'flac'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Formats that need ffmpeg on this machine (no JS/WASM encoder exists for them here). */
export const FFMPEG_ONLY_FORMATS: readonly OutputFormat[] = ['aac'];
/** Opus is always encoded at 48 kHz (what every Ogg Opus decoder plays at). */
export const OPUS_SAMPLE_RATE = 48_000;

export const OUTPUT_EXTENSIONS: Record<OutputFormat, string> = { wav: 'wav', pcm: 'pcm', mp3: 'mp3', opus: 'opus', aac: 'aac', flac: 'flac' };

export function outputContentType(format: OutputFormat, sampleRate: number, channels: number): string {
  switch (format) {
    case 'wav':
      return 'audio/wav';
    case 'pcm':
      return `audio/pcm;rate=${sampleRate};channels=${channels};encoding=s16le`;
    case 'mp3':
      return 'audio/mpeg';
    case 'opus':
      return 'audio/ogg; codecs=opus';
    case 'aac':
      return 'audio/aac';
    case 'flac':
      return 'audio/flac';
  }
}

/** The formats this machine can make now: everything with ffmpeg, all but AAC without. */
export function availableOutputFormats(): OutputFormat[] {
  const ffmpeg = findFfmpeg() !== null;
  return OUTPUT_FORMATS.filter((f) => ffmpeg || !FFMPEG_ONLY_FORMATS.includes(f));
}

/** Refuses a format this machine cannot make, naming the ones it can (JobError invalid_params). */
export function checkFormatAvailable(format: OutputFormat): void {
  if (availableOutputFormats().includes(format)) return;
  throw new JobError(
    'invalid_params',
    `${format} output needs ffmpeg, which is not installed on this machine; it can make ${availableOutputFormats().join(', ')}`,
  );
}

export interface SpeechEncoderOptions {
  format: OutputFormat;
  /** Output rate in Hz (Opus: always 48 kHz, see OPUS_SAMPLE_RATE). */
  sampleRate: number;
  channels: 1 | 2;
}

export interface SpeechEncoder {
  readonly format: OutputFormat;
  readonly contentType: string;
  readonly extension: string;
  readonly sampleRate: number;
  readonly channels: number;
  /** Mono samples at the engine's rate, in order. */
  push(samples: Float32Array): Promise<void>;
  /** Flushes everything; resolves with the length of the audio (samples per channel / rate). */
  finish(): Promise<{ durationSeconds: number }>;
  /** Stops at once; nothing more reaches the sink. */
  abort(): void;
}

async function formatEncoder(format: OutputFormat, rate: number, channels: number, sink: EncodedSink): Promise<FormatEncoder> {
  switch (format) {
    case 'wav':
    case 'pcm':
      return createPcmEncoder(rate, channels, sink, format === 'wav');
    case 'mp3':
      return createMp3Encoder(rate, channels, sink);
    case 'opus':
    case 'flac':
    case 'aac': {
      const ffmpeg = findFfmpeg();
      if (ffmpeg) return createFfmpegEncoder(ffmpeg, format, rate, channels, sink);
      checkFormatAvailable(format);
      return createLibavEncoder(format as 'opus' | 'flac', rate, channels, sink);
    }
  }
}

export async function createSpeechEncoder(options: SpeechEncoderOptions, sourceRate: number, sink: EncodedSink): Promise<SpeechEncoder> {
  checkFormatAvailable(options.format);
  const rate = options.format === 'opus' ? OPUS_SAMPLE_RATE : options.sampleRate;
  const resampler: BlockProcessor | null = rate === sourceRate ? null : await createStreamResampler(sourceRate, rate);
  const encoder = await formatEncoder(options.format, rate, options.channels, sink);
  let samples = 0;
  let aborted = false;
  const write = async (mono: Float32Array): Promise<void> => {
    if (mono.length === 0 || aborted) return;
    samples += mono.length;
    await encoder.write(options.channels === 1 ? mono : interleave([mono, mono]));
  };
  return {
    format: options.format,
    contentType: outputContentType(options.format, rate, options.channels),
    extension: OUTPUT_EXTENSIONS[options.format],
    sampleRate: rate,
    channels: options.channels,
    async push(mono) {
      await write(resampler ? resampler.push(mono) : mono);
    },
    async finish() {
      if (resampler) await write(resampler.finish());
      await encoder.end();
      return { durationSeconds: samples / rate };
    },
    abort() {
      aborted = true;
      resampler?.release?.();
      encoder.abort();
    },
  };
}
