import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../../src-main/common/errors.js';
import { asrParamsSchema } from '../../../../src-main/engines/asr/asr-params-schema.js';
import { espeakParamsSchema } from '../../../../src-main/engines/tts/espeak-models.js';
import { OUTPUT_PARAMS_SCHEMA, outputFormatRules } from '../../../../src-main/engines/tts/output-params.js';
import { parseParamsPart, ParamsValidator } from '../../../../src-main/service/params/params-validator.js';
import { publishedParamsSchema } from '../../../../src-main/service/params/published-schema.js';

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
  it('finds a schema it has seen by the object itself, without serializing it again', () => {
    const fresh = new ParamsValidator();
    const stable = structuredClone(schema);
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      fresh.validate('m', stable, {});
      const first = stringify.mock.calls.filter(([value]) => value === stable).length;
      expect(first).toBe(1);
      for (let i = 0; i < 5; i++) fresh.validate('m', stable, { temperature: 0.5 });
      expect(codeOf(() => fresh.validate('m', stable, { temperature: 2 }))).toMatch(/^invalid_params: params\.temperature must be <= 1/);
      expect(stringify.mock.calls.filter(([value]) => value === stable).length).toBe(first);
    } finally {
      stringify.mockRestore();
    }
  });
  it('follows a definition that changed (a new schema object), and keeps the old object\'s rules for the old object', () => {
    const fresh = new ParamsValidator();
    const before = structuredClone(schema);
    expect(codeOf(() => fresh.validate('m', before, { temperature: 1.5 }))).toMatch(/^invalid_params: params\.temperature must be <= 1/);
    const after = structuredClone(schema);
    after.properties.temperature.maximum = 2;
    expect(fresh.validate('m', after, { temperature: 1.5 })).toMatchObject({ temperature: 1.5 });
    expect(codeOf(() => fresh.validate('m', before, { temperature: 1.5 }))).toMatch(/^invalid_params: params\.temperature must be <= 1/);
    // The same content in yet another object is the same rules.
    expect(codeOf(() => fresh.validate('m', structuredClone(schema), { temperature: 1.5 }))).toMatch(/must be <= 1/);
  });
});

describe('parseParamsPart', () => {
  it('absent or the empty string means defaults; a JSON object passes; anything else (whitespace too) is invalid_params', () => {
    expect(parseParamsPart(null)).toEqual({});
    expect(parseParamsPart('')).toEqual({});
    for (const blank of [' ', '\n', '\t ']) expect(codeOf(() => parseParamsPart(blank))).toMatch(/^invalid_params/);
    expect(parseParamsPart('{"a":1}')).toEqual({ a: 1 });
    for (const bad of ['[]', '1', '"s"', 'null', '{']) expect(codeOf(() => parseParamsPart(bad))).toMatch(/^invalid_params/);
  });
});

describe('cross-field rules stated in the schema itself', () => {
  const v = new ParamsValidator();
  const tts = espeakParamsSchema();
  it('mp3 needs an MPEG sample rate: refused naming the field and the condition', () => {
    const message = codeOf(() => v.validate('espeak-ng', tts, { output_format: 'mp3', output_sample_rate: 11000 }));
    expect(message).toMatch(/^invalid_params: params\.output_sample_rate must be equal to one of the allowed values.*11025.*when params\.output_format is "mp3"/);
    expect(v.validate('espeak-ng', tts, { output_format: 'mp3', output_sample_rate: 11025 })).toMatchObject({ output_format: 'mp3' });
    expect(v.validate('espeak-ng', tts, { output_format: 'mp3' })).toMatchObject({ output_sample_rate: 'source' });
    expect(v.validate('espeak-ng', tts, { output_format: 'wav', output_sample_rate: 11000 })).toMatchObject({ output_sample_rate: 11000 });
  });
  it("a voice whose own rate MPEG cannot carry must name a rate for mp3 ('source' is refused)", () => {
    const v2 = new ParamsValidator();
    const schema = { type: 'object', properties: { ...OUTPUT_PARAMS_SCHEMA }, allOf: [outputFormatRules(37_000)] };
    expect(codeOf(() => v2.validate('odd', schema, { output_format: 'mp3' }))).toMatch(/^invalid_params: params\.output_sample_rate .*when params\.output_format is "mp3"/);
    expect(v2.validate('odd', schema, { output_format: 'mp3', output_sample_rate: 32000 })).toMatchObject({ output_sample_rate: 32000 });
  });
  it('a value matching none of its alternatives names them all', () => {
    expect(codeOf(() => v.validate('espeak-ng', tts, { output_sample_rate: 100 }))).toBe(
      'invalid_params: params.output_sample_rate must be an integer from 8000 to 48000 or "source"',
    );
  });
  it('num_speakers only with speaker_diarization on', () => {
    const asr = asrParamsSchema({ family: 'nemo-ctc', languages: ['en'], vad: false, diarization: true });
    expect(codeOf(() => v.validate('asr', asr, { num_speakers: 2 }))).toMatch(/^invalid_params: params\.speaker_diarization .*when params\.num_speakers is given/);
    expect(v.validate('asr', asr, { speaker_diarization: true, num_speakers: 2 })).toMatchObject({ num_speakers: 2 });
  });
  it('an eSpeak language no voice speaks is refused by the pattern, with the field description', () => {
    expect(codeOf(() => v.validate('espeak-ng', tts, { language: 'xx-YY' }))).toMatch(/^invalid_params: params\.language is not accepted: A language some voice speaks/);
    for (const ok of ['en', 'EN-gb', 'en_IN', 'pt-BR', 'cmn', 'yue']) expect(v.validate('espeak-ng', tts, { language: ok }), ok).toMatchObject({ language: ok });
  });
  it('the catalogue publishes the very schema the validator compiles: closed, dialect 2020-12', () => {
    const published = publishedParamsSchema({ $schema: 'http://json-schema.org/draft-07/schema#', properties: { a: { type: 'string' } } });
    expect(published).toEqual({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false });
  });
});

describe('ParamsValidator.prepare', () => {
  it('compiles schemas ahead of their first request; one that does not compile is left to that request', async () => {
    const v = new ParamsValidator();
    const broken = { type: 'object', properties: { n: { type: 'no-such-type' } } };
    await v.prepare([
      { id: 'ok', paramsSchema: schema },
      { id: 'broken', paramsSchema: broken },
    ]);
    expect(v.validate('ok', schema, {})).toEqual({ language: 'auto', format: 'json' });
    expect(() => v.validate('broken', broken, { n: 1 })).toThrow();
  });

});
