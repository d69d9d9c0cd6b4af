/**
 * One catalogue row per product that has no on-device engine. These are not engines: they make the catalogue
 * (with include_unavailable=true) say what each product needs, and give a POST naming them a 422 model_unavailable
 * with the reason instead of an unknown-model error. A hosted service's own rows serve these products when set up.
 */
import type { Capability } from '../../common/products.js';
import type { ModelDefinition, ModelSource } from '../model-definition.js';
import { NO_ENGINE, NO_LIMITS } from '../model-definition.js';
import type { ModelSourceFactory } from '../model-sources.js';
import { productParamsSchema, UNSERVED_PRODUCTS, type UnservedProduct } from './product-params-schemas.js';
import { MAX_FILE_BYTES } from '../../common/limits.js';

const ROWS: Record<UnservedProduct, { capability: Capability; name: string; summary: string; audioIn: boolean }> = {
  'voice-cloning': { capability: 'voice_cloning', name: 'Voice cloning', summary: 'Speaks text in the voice of a reference recording.', audioIn: true },
  'voice-design': { capability: 'voice_design', name: 'Voice design', summary: 'Speaks text in a new voice described in words.', audioIn: false },
  'voice-conversion': { capability: 'voice_conversion', name: 'Voice conversion', summary: 'Re-voices a recording with another voice, keeping the words and timing.', audioIn: true },
  'voice-continuation': { capability: 'voice_continuation', name: 'Voice continuation', summary: 'Continues a recording in the same voice.', audioIn: true },
};

/** The reason every such row carries (and the 422 message repeats). */
export function unservedReason(product: UnservedProduct): string {
  if (product === 'voice-design') {
    return 'voice design blends the voices of a multi-speaker Kokoro model: install one (voxdesk models pull kokoro-multi-lang-v1_0, or kokoro-en-v0_19) or configure a hosted service in Settings';
  }
  return `no on-device engine for ${product}; configure a hosted service in Settings to run it there`;
}

/** Catalogue id of the row explaining `product`. */
export function unservedModelId(product: UnservedProduct): string {
  return `local-${product}`;
}

export function unavailableProductDefinition(product: UnservedProduct): ModelDefinition {
  const row = ROWS[product];
  return {
    id: unservedModelId(product),
    name: `${row.name} (on device)`,
    description:
      product === 'voice-design'
        ? `${row.summary} On this device it blends the voices of an installed multi-speaker Kokoro model (none is installed); a hosted service can also run it.`
        : `${row.summary} No on-device engine exists for it; a hosted service can run it.`,
    capability: row.capability,
    products: [product],
    ...NO_ENGINE,
    engineConfig: {},
    languages: [],
    limits: row.audioIn ? { ...NO_LIMITS, max_file_bytes: MAX_FILE_BYTES } : NO_LIMITS,
    paramsSchema: productParamsSchema(product),
    reason: unservedReason(product),
  };
}

export const unavailableProductsSource: ModelSourceFactory = (): ModelSource => {
  // Fixed by this build: the rows never change while the process runs.
  const rows = UNSERVED_PRODUCTS.map(unavailableProductDefinition);
  return { name: 'unavailable-products', list: () => rows, version: () => 0 };
};
