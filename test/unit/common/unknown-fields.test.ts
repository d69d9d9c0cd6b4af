import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-main/common/errors.js';
import { refuseUnknownFields, unknownFieldMessage } from '../../../src-main/common/unknown-fields.js';

describe('the one rule for unknown fields', () => {
  it('names the first unknown field with its path, what its owner takes, and to leave it out', () => {
    expect(unknownFieldMessage({ from: 'a', to: 'b', colour: 1 }, ['from', 'to'], 'replacements[2].', 'a replacement')).toBe(
      'unknown field "replacements[2].colour"; a replacement takes from, to: leave it out',
    );
    expect(unknownFieldMessage({ model: 'm', temperature: 1 }, ['model', 'params'])).toMatch(/this route takes model, params: leave it out \(a model's own settings go inside params\)$/);
    expect(unknownFieldMessage({ model: 'm' }, ['model'])).toBeNull();
  });

  it('refuses with ApiError unsupported_param, and passes a known body', () => {
    expect(() => refuseUnknownFields({ monthly_usd: 5 }, ['monthly_usd'])).not.toThrow();
    let caught: unknown;
    try {
      refuseUnknownFields({ monthly_usd: 5, currency: 'EUR' }, ['monthly_usd'], '', 'the budget');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ApiError);
    expect(caught).toMatchObject({ code: 'unsupported_param', message: 'unknown field "currency"; the budget takes monthly_usd: leave it out' });
  });
});
