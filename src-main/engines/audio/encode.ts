/**
 * Output options for generated speech (`output_format`, `output_sample_rate`, `output_channels`) and the one-shot
 * encoder. Formats: `wav` (16-bit PCM RIFF), `pcm` (raw s16le, interleaved), `mp3` (LAME via @breezystack/lamejs;
 * MPEG rates only), `opus` (Ogg, 48 kHz), `aac` (ADTS; needs ffmpeg), `flac`. The encoders themselves stream
 * (stream-encoder.ts); encodeOutput runs one over a whole buffer.
 */
import { JobError } from '../../common/errors.js';
import { checkFormatAvailable, createSpeechEncoder, OUTPUT_FORMATS, type OutputFormat } from './stream-encoder.js';

export { OUTPUT_FORMATS, type OutputFormat } from './stream-encoder.js';
export { MP3_KBPS_PER_CHANNEL } from './format-encoder.js';

/** Sample rates MPEG-1/2/2.5 layer III can carry. */
export const MP3_SAMPLE_RATES = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000] as const;
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

/**
 * Checks options that depend on the engine's rate or this machine before any synthesis work: mp3 needs an MPEG
 * rate, aac needs ffmpeg.
 */
export function checkOutputOptions(options: OutputOptions, sourceRate: number): void {
  checkFormatAvailable(options.format);
  const rate = options.sampleRate === 'source' ? sourceRate : options.sampleRate;
  if (options.format === 'mp3' && !(MP3_SAMPLE_RATES as readonly number[]).includes(rate)) {
    throw new JobError(
      'invalid_params',
      `mp3 output needs output_sample_rate one of ${MP3_SAMPLE_RATES.join(', ')} (got ${rate})`,
    );
  }
}

/** The channel count and rate the options give for an engine's rate. */
export function resolvedOutput(options: OutputOptions, sourceRate: number): { format: OutputFormat; sampleRate: number; channels: 1 | 2 } {
  return {
    format: options.format,
    sampleRate: options.sampleRate === 'source' ? sourceRate : options.sampleRate,
    channels: options.channels === 'source' ? 1 : options.channels,
  };
}

export async function encodeOutput(samples: Float32Array, sourceRate: number, options: OutputOptions): Promise<EncodedAudio> {
  checkOutputOptions(options, sourceRate);
  const writes: { bytes: Uint8Array; position: number }[] = [];
  let size = 0;
  const encoder = await createSpeechEncoder(resolvedOutput(options, sourceRate), sourceRate, (bytes, position) => {
    writes.push({ bytes: Uint8Array.from(bytes), position });
    size = Math.max(size, position + bytes.length);
  });
  await encoder.push(samples);
  const { durationSeconds } = await encoder.finish();
  const bytes = new Uint8Array(size);
  for (const w of writes) bytes.set(w.bytes, w.position);
  return {
    bytes,
    contentType: encoder.contentType,
    extension: encoder.extension,
    sampleRate: encoder.sampleRate,
    channels: encoder.channels,
    durationSeconds,
  };
}
