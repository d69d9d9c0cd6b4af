/** JSON Schema of the output params every on-device TTS model accepts (defaults next to each field). */
import type { JsonSchema } from '../../common/api-types.js';
import { MAX_OUTPUT_RATE, MIN_OUTPUT_RATE, OUTPUT_FORMATS } from '../audio/encode.js';

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
