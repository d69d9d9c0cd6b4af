import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-main/common/errors.js';
import { parseParamsPart, ParamsValidator } from '../../../src-main/service/params/params-validator.js';

const schema = {
  type: 'object',
  properties: {
    language: { type: 'string', default: 'auto' },
    temperature: { type: 'number', minimum: 0, maximum: 1 },
    format: { enum: ['json', 'verbose_json'], default: 'json' },
  },
};

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return `${error.code}: ${error.message}`;
    throw error;
  }
  return 'no error';
}

describe('ParamsValidator', () => {
  const v = new ParamsValidator();
  it('applies defaults to a copy and keeps the input untouched', () => {
    const input = { temperature: 0.2 };
    expect(v.validate('m', schema, input)).toEqual({ language: 'auto', format: 'json', temperature: 0.2 });
    expect(input).toEqual({ temperature: 0.2 });
  });
  it('refuses unknown params by name, even when the schema does not say additionalProperties', () => {
    expect(codeOf(() => v.validate('m', schema, { prompt: 'x' }))).toMatch(/^unsupported_param: .*"prompt"/);
  });
  it('refuses wrong types and ranges with the path', () => {
    expect(codeOf(() => v.validate('m', schema, { temperature: 3 }))).toMatch(/^invalid_params: params\.temperature must be <= 1/);
    expect(codeOf(() => v.validate('m', schema, { format: 'xml' }))).toMatch(/^invalid_params: params\.format .*verbose_json/);
  });
  it('accepts a draft-07 tag and caches compiled schemas per model', () => {
    expect(v.validate('d7', { $schema: 'http://json-schema.org/draft-07/schema#', ...schema }, {})).toMatchObject({ language: 'auto' });
    expect(v.validate('m', schema, {})).toMatchObject({ format: 'json' });
  });
});

describe('parseParamsPart', () => {
  it('empty means defaults; a JSON object passes; anything else is invalid_params', () => {
    expect(parseParamsPart(null)).toEqual({});
    expect(parseParamsPart('  ')).toEqual({});
    expect(parseParamsPart('{"a":1}')).toEqual({ a: 1 });
    for (const bad of ['[]', '1', '"s"', 'null', '{']) expect(codeOf(() => parseParamsPart(bad))).toMatch(/^invalid_params/);
  });
});
