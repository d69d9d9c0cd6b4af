import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { denoiseParamsSchema, resolveDenoiseParams } from '../../../../src-main/engines/denoise/denoise-params.js';
import { gtcrnDefinition } from '../../../../src-main/engines/denoise/denoise-families.js';
import { denoiseModelSource } from '../../../../src-main/engines/denoise/rnnoise-models.js';

// The same options as the service's validator (service/params/params-validator.ts), plus strict mode so that an
// unknown keyword in the schema fails here.
const ajv = new Ajv2020({ useDefaults: true, allErrors: true, strict: true, coerceTypes: false });
const validate = ajv.compile(denoiseParamsSchema());

function check(params: Record<string, unknown>): { ok: boolean; value: Record<string, unknown> } {
  const value = structuredClone(params);
  return { ok: validate(value), value };
}

describe('denoise params schema', () => {
  it('fills the defaults', () => {
    const { ok, value } = check({});
    expect(ok).toBe(true);
    expect(value).toEqual({ strength: 1, output_format: 'wav', output_sample_rate: 'source', output_channels: 'source' });
    expect(resolveDenoiseParams(value)).toEqual({ strength: 1, outputFormat: 'wav', outputSampleRate: 'source', outputChannels: 'source' });
  });

  it.each([
    [{ strength: 0 }],
    [{ strength: 0.25, output_format: 'pcm' }],
    [{ mix: 0.5 }],
    [{ output_sample_rate: 8000, output_channels: 2 }],
    [{ output_sample_rate: 48000, output_channels: 1 }],
    [{ output_sample_rate: 'source', output_channels: 'source' }],
  ])('accepts %j', (params) => {
    const { ok, value } = check(params);
    expect(ok).toBe(true);
    expect(() => resolveDenoiseParams(value)).not.toThrow();
  });

  it.each([
    [{ strength: 1.5 }],
    [{ strength: -0.1 }],
    [{ strength: '1' }],
    [{ mix: 2 }],
    [{ output_format: 'mp3' }],
    [{ output_sample_rate: 44100.5 }],
    [{ output_sample_rate: 4000 }],
    [{ output_sample_rate: 96000 }],
    [{ output_sample_rate: 'native' }],
    [{ output_channels: 3 }],
    [{ output_channels: '2' }],
    [{ denoise_level: 'high' }],
  ])('refuses %j, in the schema and in the engine', (params) => {
    expect(check(params).ok).toBe(false);
    expect(() => resolveDenoiseParams(params)).toThrow(expect.objectContaining({ code: 'invalid_params' }) as Error);
  });

  it('lets an explicit mix win over the default strength the validator filled in', () => {
    const { value } = check({ mix: 0.3 });
    expect(value.strength).toBe(1);
    expect(resolveDenoiseParams(value).strength).toBe(0.3);
  });
});

describe('denoiser catalogue rows', () => {
  it('lists RNNoise as an available built-in noise_reduction model for both audio products', () => {
    const [row, ...rest] = denoiseModelSource({ dataDir: '/nonexistent' }).list();
    expect(rest).toHaveLength(0);
    expect(row).toMatchObject({
      id: 'rnnoise',
      capability: 'noise_reduction',
      products: ['voice-isolator', 'audio-enhancement'],
      provider: 'local',
      engine: 'rnnoise',
      status: 'available',
      reason: null,
      download: null,
      live: false,
    });
    expect(() => ajv.compile(row!.paramsSchema)).not.toThrow();
  });

  it('builds GTCRN fields from a package with a relative or absolute model path', () => {
    const fields = gtcrnDefinition({ id: 'gtcrn-simple', dir: '/data/models/gtcrn-simple', files: { model: 'gtcrn_simple.onnx' } });
    expect(fields).toMatchObject({ engine: 'gtcrn', engineConfig: { model: '/data/models/gtcrn-simple/gtcrn_simple.onnx', maxAudioSeconds: 7200 }, live: false });
    expect(fields.paramsSchema).toEqual(denoiseParamsSchema());
    const absolute = gtcrnDefinition({ id: 'x', dir: '/d', files: { model: '/elsewhere/g.onnx' } });
    expect(absolute.engineConfig).toMatchObject({ model: '/elsewhere/g.onnx' });
    expect(() => gtcrnDefinition({ id: 'x', dir: '/d', files: {} })).toThrow(/lacks its model file/);
  });
});
