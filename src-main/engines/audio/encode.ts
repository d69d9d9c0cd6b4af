/**
 * Output encoding for generated speech: Float32 mono at the engine's rate → resample → channels → container.
 * Formats: `wav` (16-bit PCM RIFF), `pcm` (raw s16le, interleaved), `mp3` (LAME via @breezystack/lamejs,
 * a maintained pure-JS port; MPEG rates only).
 */
import { Mp3Encoder } from '@breezystack/lamejs';
import { JobError } from '../../common/errors.js';
import { floatToS16le, interleave } from './pcm.js';
import { resampleMono } from './resample.js';
import { encodeWav } from './wav.js';

export const OUTPUT_FORMATS = ['wav', 'pcm', 'mp3'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Sample rates MPEG-1/2/2.5 layer III can carry. */
export const MP3_SAMPLE_RATES = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000] as const;
/** MP3 bit rate per channel (kbit/s): transparent enough for speech, ~16 KB per second of stereo. */
export const MP3_KBPS_PER_CHANNEL = 64;
/** Bounds of an explicit output_sample_rate. */
export const MIN_OUTPUT_RATE = 8000;
export const MAX_OUTPUT_RATE = 48000;

export interface OutputOptions {
  /** Default 'wav'. */
  format: OutputFormat;
  /** Integer 8000–48000 or 'source' (the engine's own rate). Default 'source'. */
  sampleRate: number | 'source';
  /** 1, 2 or 'source' (= 1: engines speak mono). Default 'source'. */
  channels: 1 | 2 | 'source';
}

export const DEFAULT_OUTPUT: OutputOptions = { format: 'wav', sampleRate: 'source', channels: 'source' };

export interface EncodedAudio {
  bytes: Uint8Array;
  contentType: string;
  extension: string;
  sampleRate: number;
  channels: number;
  /** Length of the audio (not of the file): samples per channel / rate. */
  durationSeconds: number;
}

/** Reads output_format / output_sample_rate / output_channels from validated params; bad values → invalid_params. */
export function outputOptionsFromParams(params: Record<string, unknown>): OutputOptions {
  const format = params.output_format ?? DEFAULT_OUTPUT.format;
  const rate = params.output_sample_rate ?? DEFAULT_OUTPUT.sampleRate;
  const channels = params.output_channels ?? DEFAULT_OUTPUT.channels;
  if (!(OUTPUT_FORMATS as readonly unknown[]).includes(format)) {
    throw new JobError('invalid_params', `output_format must be one of ${OUTPUT_FORMATS.join(', ')}`);
  }
  if (rate !== 'source' && !(Number.isInteger(rate) && (rate as number) >= MIN_OUTPUT_RATE && (rate as number) <= MAX_OUTPUT_RATE)) {
    throw new JobError('invalid_params', `output_sample_rate must be "source" or an integer ${MIN_OUTPUT_RATE}–${MAX_OUTPUT_RATE}`);
  }
  if (channels !== 'source' && channels !== 1 && channels !== 2) {
    throw new JobError('invalid_params', 'output_channels must be 1, 2 or "source"');
  }
  return { format: format as OutputFormat, sampleRate: rate as number | 'source', channels };
}

/** Checks options that depend on the engine's rate before any synthesis work (mp3 needs an MPEG rate). */
export function checkOutputOptions(options: OutputOptions, sourceRate: number): void {
  const rate = options.sampleRate === 'source' ? sourceRate : options.sampleRate;
  if (options.format === 'mp3' && !(MP3_SAMPLE_RATES as readonly number[]).includes(rate)) {
    throw new JobError(
      'invalid_params',
      `mp3 output needs output_sample_rate one of ${MP3_SAMPLE_RATES.join(', ')} (got ${rate})`,
    );
  }
}

export async function encodeOutput(samples: Float32Array, sourceRate: number, options: OutputOptions): Promise<EncodedAudio> {
  checkOutputOptions(options, sourceRate);
  const rate = options.sampleRate === 'source' ? sourceRate : options.sampleRate;
  const channelCount = options.channels === 'source' ? 1 : options.channels;
  const mono = await resampleMono(samples, sourceRate, rate);
  const channels = Array.from({ length: channelCount }, () => mono);
  const durationSeconds = mono.length / rate;
  const base = { sampleRate: rate, channels: channelCount, durationSeconds };
  switch (options.format) {
    case 'wav':
      return { ...base, bytes: encodeWav(channels, rate), contentType: 'audio/wav', extension: 'wav' };
    case 'pcm':
      return {
        ...base,
        bytes: floatToS16le(interleave(channels)),
        contentType: `audio/pcm;rate=${rate};channels=${channelCount};encoding=s16le`,
        extension: 'pcm',
      };
    case 'mp3':
      return { ...base, bytes: encodeMp3(mono, channelCount, rate), contentType: 'audio/mpeg', extension: 'mp3' };
  }
}

function encodeMp3(mono: Float32Array, channelCount: number, rate: number): Uint8Array {
  const encoder = new Mp3Encoder(channelCount, rate, MP3_KBPS_PER_CHANNEL * channelCount);
  const pcm = floatToS16le(mono);
  const int16 = new Int16Array(pcm.buffer, pcm.byteOffset, mono.length);
  const parts: Uint8Array[] = [];
  // lamejs hands back Int8Array views; the bytes are what matter.
  const bytes = (a: Int8Array | Uint8Array): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const block = 1152 * 16;
  for (let i = 0; i < int16.length; i += block) {
    const piece = int16.subarray(i, i + block);
    parts.push(bytes(channelCount === 2 ? encoder.encodeBuffer(piece, piece) : encoder.encodeBuffer(piece)));
  }
  parts.push(bytes(encoder.flush()));
  return Buffer.concat(parts);
}
