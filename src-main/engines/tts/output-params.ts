/** JSON Schema of the output params every on-device TTS model accepts (defaults next to each field). */
import type { JsonSchema } from '../../common/api-types.js';
import { MAX_OUTPUT_RATE, MIN_OUTPUT_RATE, MP3_SAMPLE_RATES, OUTPUT_FORMATS } from '../audio/encode.js';

export const SPEED_SCHEMA: JsonSchema = {
  type: 'number',
  minimum: 0.5,
  maximum: 2,
  default: 1,
  description: 'Speaking rate: 1 is normal, 2 twice as fast, 0.5 half as fast.',
};

export const OUTPUT_PARAMS_SCHEMA: Record<string, JsonSchema> = {
  output_format: {
    type: 'string',
    enum: [...OUTPUT_FORMATS],
    default: 'wav',
    description:
      'wav (16-bit PCM), pcm (raw s16le, interleaved), mp3 (64 kbit/s per channel; needs an MPEG sample rate), opus (Ogg, 48 kHz), aac (ADTS; needs ffmpeg on the machine), flac.',
  },
  output_sample_rate: {
    anyOf: [{ type: 'integer', minimum: MIN_OUTPUT_RATE, maximum: MAX_OUTPUT_RATE }, { const: 'source' }],
    default: 'source',
    description: "Sample rate of the file in Hz, or 'source' for the voice's own rate.",
  },
  output_channels: {
    enum: [1, 2, 'source'],
    default: 'source',
    description: "1 (mono), 2 (the same speech on both channels) or 'source' (mono).",
  },
};

/**
 * The cross-field rule of the output params, as plain JSON Schema (if/then) so the catalogue shows it and the
 * service enforces it before a job exists: mp3 needs an MPEG sample rate. `sourceRate` is the voice's own rate when
 * known: 'source' (the default) is allowed with mp3 only when that rate is an MPEG rate. When the rate is not known
 * until the voice loads, 'source' stays allowed here and the engine checks it (audio/encode.ts).
 */
export function outputFormatRules(sourceRate: number | null): JsonSchema {
  const mpegRates: (number | string)[] = [...MP3_SAMPLE_RATES];
  const sourceOk = sourceRate === null || (MP3_SAMPLE_RATES as readonly number[]).includes(sourceRate);
  if (sourceOk) mpegRates.push('source');
  return {
    if: { properties: { output_format: { const: 'mp3' } }, required: ['output_format'] },
    then: {
      ...(sourceOk ? {} : { required: ['output_sample_rate'] }),
      properties: {
        output_sample_rate: {
          enum: mpegRates,
          description: `mp3 carries only MPEG sample rates: ${MP3_SAMPLE_RATES.join(', ')}${sourceOk ? ", or 'source'" : ` (this voice speaks at ${sourceRate} Hz)`}.`,
        },
      },
    },
  };
}
