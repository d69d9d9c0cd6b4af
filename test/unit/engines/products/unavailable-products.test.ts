import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { PRODUCT_CAPABILITIES, PRODUCTS } from '../../../../src-main/common/products.js';
import { UNSERVED_PRODUCTS } from '../../../../src-main/engines/products/product-params-schemas.js';
import { unavailableProductsSource } from '../../../../src-main/engines/products/unavailable-products.js';

const ajv = new Ajv2020({ useDefaults: true, allErrors: true, strict: true, coerceTypes: false });
const rows = unavailableProductsSource({ dataDir: '/nonexistent' }).list();

describe('rows of the products without an on-device engine', () => {
  it('has one unavailable local row per product, with the reason', () => {
    expect(rows.map((r) => r.products)).toEqual(UNSERVED_PRODUCTS.map((p) => [p]));
    for (const row of rows) {
      const product = row.products[0]!;
      expect(PRODUCTS).toContain(product);
      expect(PRODUCT_CAPABILITIES[product]).toContain(row.capability);
      expect(row).toMatchObject({ id: `local-${product}`, status: 'unavailable', provider: 'local', engine: 'none', download: null });
      expect(row.reason).toBe(
        product === 'voice-design'
          ? 'voice design blends the voices of a multi-speaker Kokoro model: install one (voxdesk models pull kokoro-multi-lang-v1_0, or kokoro-en-v0_19) or configure a hosted service in Settings'
          : `no on-device engine for ${product}; configure a hosted service in Settings to run it there`,
      );
    }
  });

  it('covers exactly the products no on-device engine serves', () => {
    const served = ['speech-to-text', 'text-to-speech', 'voice-isolator', 'audio-enhancement', 'stem-separation'];
    expect([...UNSERVED_PRODUCTS].sort()).toEqual(PRODUCTS.filter((p) => !served.includes(p)).sort());
  });

  it('documents params with strict, closed JSON Schemas that fill defaults', () => {
    for (const row of rows) {
      const validate = ajv.compile(row.paramsSchema);
      const params: Record<string, unknown> = {};
      expect(validate(params)).toBe(true);
      expect(params.output_format).toBe('wav');
      expect(validate({ no_such_param: 1 })).toBe(false);
      expect(String(row.paramsSchema.description)).toContain(`/v1/${row.products[0]}`);
    }
  });
});
