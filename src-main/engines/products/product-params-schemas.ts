/**
 * Params schemas of the products that have no on-device engine (stem separation has one: engines/separation). They document what the HTTP layer accepts (the
 * request parts are listed in each schema's description) and are what a hosted service's rows are expected to
 * resemble; nothing here runs. Output fields mirror text-to-speech's (audio/encode.ts): wav default, pcm, mp3.
 */
import type { JsonSchema } from '../../common/api-types.js';
import type { Product } from '../../common/products.js';

/** Products whose catalogue rows explain that no on-device engine exists. */
export const UNSERVED_PRODUCTS = ['voice-cloning', 'voice-design', 'voice-conversion', 'voice-continuation'] as const;
export type UnservedProduct = (typeof UNSERVED_PRODUCTS)[number];

const OUTPUT_PROPERTIES: Record<string, JsonSchema> = {
  output_format: { type: 'string', enum: ['wav', 'pcm', 'mp3'], default: 'wav', description: 'Container of the result.' },
  output_sample_rate: {
    anyOf: [{ type: 'integer', minimum: 8000, maximum: 48000 }, { type: 'string', const: 'source' }],
    default: 'source',
    description: 'Sample rate in Hz, or "source" (the engine\'s own rate).',
  },
  output_channels: {
    anyOf: [{ type: 'integer', enum: [1, 2] }, { type: 'string', const: 'source' }],
    default: 'source',
    description: '1, 2 or "source".',
  },
};

const LANGUAGE: JsonSchema = { type: 'string', description: 'Language code of the text (BCP-47, e.g. en, de).' };

/** Request shape of each product route (what the HTTP layer reads before params). */
export const PRODUCT_REQUESTS: Record<UnservedProduct, string> = {
  'voice-cloning':
    'POST /v1/voice-cloning (and /batch): multipart parts in order model, params, name, reference (a recording of the voice to clone), text (what to say).',
  'voice-design':
    'POST /v1/voice-design (and /batch): JSON {model, text, description (the voice in words, e.g. "a calm low female voice"), params, name, save_as (keep the voice under this name)}; on this device a multi-speaker Kokoro\'s <id>-voice-design row serves it (docs/voices.md).',
  'voice-conversion':
    'POST /v1/voice-conversion (and /batch): multipart parts in order model, params, name, file (speech to re-voice).',
  'voice-continuation':
    'POST /v1/voice-continuation (no batch route): multipart parts in order model, params, name, file (the recording to continue), optional text (words the continuation should say).',
};

const SPECIFIC: Record<UnservedProduct, Record<string, JsonSchema>> = {
  'voice-cloning': { language: LANGUAGE, speed: { type: 'number', minimum: 0.5, maximum: 2, default: 1, description: 'Speaking rate.' } },
  'voice-design': { language: LANGUAGE, seed: { type: 'integer', minimum: 0, description: 'Fixes the designed voice for repeated requests.' } },
  'voice-conversion': { voice: { type: 'string', description: 'Target voice id (from the hosted catalogue).' } },
  'voice-continuation': {
    language: LANGUAGE,
    max_seconds: { type: 'number', exclusiveMinimum: 0, maximum: 60, default: 10, description: 'Longest continuation to generate.' },
  },
};

export function productParamsSchema(product: UnservedProduct): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    description: PRODUCT_REQUESTS[product],
    properties: { ...SPECIFIC[product], ...OUTPUT_PROPERTIES },
  };
}

export function isUnservedProduct(product: Product): product is UnservedProduct {
  return (UNSERVED_PRODUCTS as readonly string[]).includes(product);
}
