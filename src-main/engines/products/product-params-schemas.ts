/**
 * Params schemas of the products that have no on-device engine (stem separation has one: engines/separation; voice
 * cloning and continuation too: engines/cloning). They document what the HTTP layer accepts (the
 * request parts are listed in each schema's description) and are what a hosted service's rows are expected to
 * resemble; nothing here runs. Output fields mirror text-to-speech's (audio/encode.ts): wav default, pcm, mp3.
 */
import type { JsonSchema } from '../../common/api-types.js';
import type { Product } from '../../common/products.js';

/** Products whose catalogue rows explain that no on-device engine exists. */
export const UNSERVED_PRODUCTS = ['voice-design'] as const;
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
  'voice-design':
    'POST /v1/voice-design (and /batch): JSON {model, text, description (the voice in words, e.g. "a calm low female voice"), params, name, save_as (keep the voice under this name)}; on this device a multi-speaker Kokoro\'s <id>-voice-design row serves it (docs/voices.md).',
};

const SPECIFIC: Record<UnservedProduct, Record<string, JsonSchema>> = {
  'voice-design': { language: LANGUAGE, seed: { type: 'integer', minimum: 0, description: 'Fixes the designed voice for repeated requests.' } },
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
