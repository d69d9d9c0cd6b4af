/**
 * Params shared by every denoiser (RNNoise, GTCRN): the JSON Schema the catalogue publishes and the HTTP layer
 * validates with Ajv, and the engine-side reading of already validated params.
 */
import type { JsonSchema } from '../../common/api-types.js';
import { JobError } from '../../common/errors.js';

export type DenoiseOutputFormat = 'wav' | 'pcm';

export interface DenoiseParams {
  /** Wet/dry blend: 1 = fully denoised, 0 = the input unchanged. Default 1. */
  strength: number;
  /** wav (16-bit PCM WAV) or pcm (raw signed 16-bit little-endian, interleaved). Default wav. */
  outputFormat: DenoiseOutputFormat;
  /** Output sample rate in Hz, or 'source' (the uploaded file's rate). Default 'source'. */
  outputSampleRate: number | 'source';
  /** 1, 2 or 'source' (the uploaded file's channel count, 1 or 2; more is mixed down to 2). Default 'source'. */
  outputChannels: 1 | 2 | 'source';
}

export const DENOISE_DEFAULTS: DenoiseParams = {
  strength: 1,
  outputFormat: 'wav',
  outputSampleRate: 'source',
  outputChannels: 'source',
};

/** Output rates accepted: the same bounds as text-to-speech output (audio/encode.ts). */
export const MIN_OUTPUT_RATE = 8000;
export const MAX_OUTPUT_RATE = 48_000;

export function denoiseParamsSchema(): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      strength: {
        type: 'number',
        minimum: 0,
        maximum: 1,
        default: DENOISE_DEFAULTS.strength,
        description: 'Wet/dry blend of denoised and original audio: 1 = fully denoised, 0 = original unchanged.',
      },
      mix: {
        type: 'number',
        minimum: 0,
        maximum: 1,
        description: 'Alias of strength; when both are sent, mix wins.',
      },
      output_format: {
        type: 'string',
        enum: ['wav', 'pcm'],
        default: DENOISE_DEFAULTS.outputFormat,
        description: 'wav: 16-bit PCM WAV; pcm: raw signed 16-bit little-endian samples, channels interleaved.',
      },
      output_sample_rate: {
        anyOf: [
          { type: 'integer', minimum: MIN_OUTPUT_RATE, maximum: MAX_OUTPUT_RATE },
          { type: 'string', const: 'source' },
        ],
        default: DENOISE_DEFAULTS.outputSampleRate,
        description: 'Sample rate of the result in Hz, or "source" for the rate of the uploaded file.',
      },
      output_channels: {
        anyOf: [{ type: 'integer', enum: [1, 2] }, { type: 'string', const: 'source' }],
        default: DENOISE_DEFAULTS.outputChannels,
        description: '1, 2, or "source" (the uploaded file\'s channel count). Denoising works on the mono mix; 2 channels carry it twice.',
      },
    },
  };
}

function invalid(message: string): JobError {
  return new JobError('invalid_params', message);
}

/** Reads params (already validated and defaulted by the service; checked again here because workers trust nothing). */
export function resolveDenoiseParams(params: Record<string, unknown>): DenoiseParams {
  const known = new Set(['strength', 'mix', 'output_format', 'output_sample_rate', 'output_channels']);
  for (const key of Object.keys(params)) if (!known.has(key)) throw invalid(`unknown param "${key}"`);
  // The service fills strength's default before the engine sees params, so an explicit mix must win.
  const strength = params.mix ?? params.strength ?? DENOISE_DEFAULTS.strength;
  if (typeof strength !== 'number' || !(strength >= 0 && strength <= 1)) throw invalid('strength must be a number from 0 to 1');
  const outputFormat = params.output_format ?? DENOISE_DEFAULTS.outputFormat;
  if (outputFormat !== 'wav' && outputFormat !== 'pcm') throw invalid('output_format must be "wav" or "pcm"');
  const rate = params.output_sample_rate ?? DENOISE_DEFAULTS.outputSampleRate;
  if (rate !== 'source' && !(Number.isInteger(rate) && (rate as number) >= MIN_OUTPUT_RATE && (rate as number) <= MAX_OUTPUT_RATE)) {
    throw invalid(`output_sample_rate must be an integer from ${MIN_OUTPUT_RATE} to ${MAX_OUTPUT_RATE} or "source"`);
  }
  const channels = params.output_channels ?? DENOISE_DEFAULTS.outputChannels;
  if (channels !== 'source' && channels !== 1 && channels !== 2) throw invalid('output_channels must be 1, 2 or "source"');
  return { strength, outputFormat, outputSampleRate: rate as number | 'source', outputChannels: channels };
}
