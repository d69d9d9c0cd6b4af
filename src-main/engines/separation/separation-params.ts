/**
 * Params of stem separation: the JSON Schema the catalogue publishes (and the HTTP layer validates with Ajv), and the
 * engine-side reading of already validated params. Both families sherpa-onnx runs (Spleeter, UVR MDX-Net) give two
 * stems, vocals and accompaniment (sherpa-onnx refuses Spleeter's 4- and 5-stem models: "Only 2stems is supported"),
 * so `stems` chooses which of the two come back; each is one artifact.
 */
import type { JsonSchema } from '../../common/api-types.js';
import { JobError } from '../../common/errors.js';

export const STEM_NAMES = ['vocals', 'accompaniment'] as const;
export type StemName = (typeof STEM_NAMES)[number];
export const STEM_CHOICES = ['vocals-accompaniment', 'vocals', 'accompaniment'] as const;
export type StemChoice = (typeof STEM_CHOICES)[number];

export type StemOutputFormat = 'wav' | 'pcm';

export interface SeparationParams {
  stems: readonly StemName[];
  outputFormat: StemOutputFormat;
  /** Hz, or 'source' (the uploaded file's rate). */
  outputSampleRate: number | 'source';
  /** 1, 2, or 'source' (the uploaded file's channels, at most 2). */
  outputChannels: 1 | 2 | 'source';
}

export const MIN_STEM_RATE = 8000;
export const MAX_STEM_RATE = 48_000;

export function separationParamsSchema(): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    description:
      'POST /v1/stem-separation (and /batch): multipart parts in order model, params, name, file (the mix to split; batch: one or more file parts). ' +
      'One artifact per stem, named vocals.wav and accompaniment.wav; result.stems lists their names in artifact order.',
    properties: {
      stems: {
        type: 'string',
        enum: [...STEM_CHOICES],
        default: 'vocals-accompaniment',
        description: 'Which stems to return: both (vocals, then accompaniment), or one of them. These models make two stems; no drums/bass split.',
      },
      output_format: {
        type: 'string',
        enum: ['wav', 'pcm'],
        default: 'wav',
        description: 'wav: 16-bit PCM WAV; pcm: raw signed 16-bit little-endian samples, channels interleaved.',
      },
      output_sample_rate: {
        anyOf: [
          { type: 'integer', minimum: MIN_STEM_RATE, maximum: MAX_STEM_RATE },
          { type: 'string', const: 'source' },
        ],
        default: 'source',
        description: 'Sample rate of the stems in Hz, or "source" for the rate of the uploaded file (the models work at 44.1 kHz).',
      },
      output_channels: {
        anyOf: [{ type: 'integer', enum: [1, 2] }, { type: 'string', const: 'source' }],
        default: 'source',
        description: '1, 2, or "source" (the uploaded file\'s channels: stereo stays stereo, more is mixed down to 2).',
      },
    },
  };
}

function invalid(message: string): JobError {
  return new JobError('invalid_params', message);
}

/** Reads params (validated by the service already; checked again because workers trust nothing). */
export function resolveSeparationParams(params: Record<string, unknown>): SeparationParams {
  const known = new Set(['stems', 'output_format', 'output_sample_rate', 'output_channels']);
  for (const key of Object.keys(params)) if (!known.has(key)) throw invalid(`unknown param "${key}"`);
  const choice = params.stems ?? 'vocals-accompaniment';
  if (!(STEM_CHOICES as readonly unknown[]).includes(choice)) throw invalid(`stems must be one of ${STEM_CHOICES.join(', ')}`);
  const stems: StemName[] = choice === 'vocals-accompaniment' ? ['vocals', 'accompaniment'] : [choice as StemName];
  const outputFormat = params.output_format ?? 'wav';
  if (outputFormat !== 'wav' && outputFormat !== 'pcm') throw invalid('output_format must be "wav" or "pcm"');
  const rate = params.output_sample_rate ?? 'source';
  if (rate !== 'source' && !(Number.isInteger(rate) && (rate as number) >= MIN_STEM_RATE && (rate as number) <= MAX_STEM_RATE)) {
    throw invalid(`output_sample_rate must be an integer from ${MIN_STEM_RATE} to ${MAX_STEM_RATE} or "source"`);
  }
  const channels = params.output_channels ?? 'source';
  if (channels !== 'source' && channels !== 1 && channels !== 2) throw invalid('output_channels must be 1, 2 or "source"');
  return { stems, outputFormat, outputSampleRate: rate as number | 'source', outputChannels: channels };
}
