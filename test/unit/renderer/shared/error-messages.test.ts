/** Error and waiting codes in plain words (src-renderer/src/shared/error-messages.ts). */
import { describe, expect, it } from 'vitest';
import { JOB_ERROR_CODES, REQUEST_ERRORS, WAITING_CODES } from '../../../../src-main/common/errors.js';
import { describeError, errorText, isWaitingCode } from '../../../../src-renderer/src/shared/error-messages.js';

describe('error sentences', () => {
  it('has a plain sentence for every documented code', () => {
    for (const code of [...Object.keys(REQUEST_ERRORS), ...JOB_ERROR_CODES, ...WAITING_CODES]) {
      const text = describeError(code);
      expect(text, code).not.toMatch(/_/);
      expect(text.endsWith('.'), code).toBe(true);
    }
    expect(describeError('something_new', 'The service said so.')).toBe('The service said so.');
    expect(describeError('something_new')).toBe('Failed (something new).');
    expect(isWaitingCode('waiting_for_network')).toBe(true);
    expect(isWaitingCode('engine_failed')).toBe(false);
    expect(errorText(Object.assign(new Error('raw'), { code: 'file_too_large' }))).toBe(describeError('file_too_large'));
    expect(errorText(new Error('Failed to fetch'))).toBe('Failed to fetch');
    expect(errorText('boom')).toBe('boom');
  });
});
