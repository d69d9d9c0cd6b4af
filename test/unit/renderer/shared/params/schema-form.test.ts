/** Forms drawn from a model's params_schema (src-renderer/src/shared/params/schema-form.ts). */
import { describe, expect, it } from 'vitest';
import { defaultValues, fieldsFromSchema, paramsToSend } from '../../../../../src-renderer/src/shared/params/schema-form.js';

describe('schema form', () => {
  const schema = {
    type: 'object',
    required: ['format'],
    properties: {
      voice: { type: 'string', enum: ['en-us', 'fr'], default: 'en-us', 'x-labels': { 'en-us': 'English (America)', fr: 'French' } },
      speed: { type: 'number', minimum: 0.5, maximum: 2, default: 1 },
      pitch: { type: 'integer', minimum: 0, maximum: 100, default: 50 },
      seed: { type: 'integer' },
      diarize: { type: 'boolean', default: false },
      prompt: { type: 'string' },
      format: { type: 'string', enum: ['wav', 'mp3'] },
      channels: { enum: [1, 2, 'source'], default: 'source' },
      rate: { anyOf: [{ type: 'integer' }, { const: 'source' }] },
      nested: { type: 'object' },
    },
  };
  const fields = fieldsFromSchema(schema);

  it('draws enum → select, bounded number → slider, number → input, boolean → toggle, string → text', () => {
    const kinds = Object.fromEntries(fields.map((f) => [f.name, f.kind]));
    expect(kinds).toEqual({ voice: 'select', speed: 'slider', pitch: 'slider', seed: 'number', diarize: 'toggle', prompt: 'text', format: 'select', channels: 'select' });
    expect(fields.find((f) => f.name === 'voice')!.options).toEqual([{ label: 'English (America)', value: 'en-us' }, { label: 'French', value: 'fr' }]);
    expect(fields.find((f) => f.name === 'pitch')!.step).toBe(1);
  });

  it('starts from the schema defaults and sends only changed, typed values', () => {
    const values = defaultValues(fields);
    expect(values).toEqual({ voice: 'en-us', speed: 1, pitch: 50, diarize: false, format: 'wav', channels: 'source' });
    expect(paramsToSend(fields, values)).toEqual({ format: 'wav' });
    expect(paramsToSend(fields, { ...values, channels: '2', speed: '1.5', voice: 'fr', seed: '7', prompt: '' })).toEqual({
      channels: 2, speed: 1.5, voice: 'fr', seed: 7, format: 'wav',
    });
  });

  it('copes with a missing or empty schema', () => {
    expect(fieldsFromSchema(undefined)).toEqual([]);
    expect(fieldsFromSchema({ type: 'object' })).toEqual([]);
  });
});
