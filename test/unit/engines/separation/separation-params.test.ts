/** Stem separation's params: the published schema (validated with Ajv as the service does) and the engine's reading. */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { resolveSeparationParams, separationParamsSchema } from '../../../../src-main/engines/separation/separation-params.js';

const ajv = new Ajv2020({ useDefaults: true, allErrors: true, strict: true, coerceTypes: false });
const validate = ajv.compile(separationParamsSchema());

describe('separation params', () => {
  it('fills defaults: both stems, WAV at the source rate and channels', () => {
    const params: Record<string, unknown> = {};
    expect(validate(params)).toBe(true);
    expect(params).toEqual({ stems: 'vocals-accompaniment', output_format: 'wav', output_sample_rate: 'source', output_channels: 'source' });
    expect(resolveSeparationParams(params)).toEqual({ stems: ['vocals', 'accompaniment'], outputFormat: 'wav', outputSampleRate: 'source', outputChannels: 'source' });
  });

  it('returns one stem when asked', () => {
    expect(resolveSeparationParams({ stems: 'accompaniment' }).stems).toEqual(['accompaniment']);
  });

  it('refuses what the models cannot do, and unknown params', () => {
    expect(validate({ stems: 'vocals-drums-bass-other' })).toBe(false);
    expect(validate({ output_format: 'mp3' })).toBe(false);
    expect(validate({ output_sample_rate: 96000 })).toBe(false);
    expect(validate({ strength: 1 })).toBe(false);
    expect(() => resolveSeparationParams({ stems: 'drums' })).toThrowError(expect.objectContaining({ code: 'invalid_params' }));
    expect(() => resolveSeparationParams({ output_channels: 3 })).toThrowError(expect.objectContaining({ code: 'invalid_params' }));
  });

  it('documents the request shape in the schema', () => {
    expect(String(separationParamsSchema().description)).toContain('POST /v1/stem-separation');
  });
});
