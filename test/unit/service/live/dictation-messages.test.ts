/** The dictation socket's client messages: every accepted shape and every refusal with its code. */
import { ApiError } from '../../../../src-main/common/errors.js';
import { describe, expect, it } from 'vitest';
import { parseDictationMessage } from '../../../../src-main/service/live/dictation-messages.js';

const LANGS = ['auto', 'en', 'de'];

function refusal(raw: unknown, languages: string[] = LANGS): { code: string; message: string } {
  try {
    parseDictationMessage(typeof raw === 'string' ? raw : JSON.stringify(raw), languages);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return { code: (error as ApiError).code, message: (error as Error).message };
  }
  throw new Error(`accepted ${JSON.stringify(raw)}`);
}

describe('dictation client messages', () => {
  it('accepts session.update with a rate and a language, an empty session, and input_audio.end', () => {
    expect(parseDictationMessage(JSON.stringify({ type: 'session.update', session: { sample_rate: 8000, language: 'de' } }), LANGS)).toEqual({
      type: 'session.update',
      session: { sample_rate: 8000, language: 'de' },
    });
    expect(parseDictationMessage('{"type":"session.update","session":{"sample_rate":48000}}', LANGS).type).toBe('session.update');
    expect(parseDictationMessage('{"type":"session.update","session":{}}', LANGS)).toEqual({ type: 'session.update', session: {} });
    expect(parseDictationMessage('{"type":"input_audio.end"}', LANGS)).toEqual({ type: 'input_audio.end' });
  });

  it('refuses what is not valid, naming the field', () => {
    expect(refusal('{"type":')).toMatchObject({ code: 'invalid_json' });
    expect(refusal('"text"')).toMatchObject({ code: 'invalid_json' });
    expect(refusal({ type: 'speak' })).toMatchObject({ code: 'unknown_message_type' });
    expect(refusal({ session: {} })).toMatchObject({ code: 'unknown_message_type' });
    expect(refusal({ type: 'session.update', session: [] })).toMatchObject({ code: 'invalid_params' });
    expect(refusal({ type: 'session.update', session: { sample_rate: '16000' } }).code).toBe('invalid_params');
    expect(refusal({ type: 'session.update', session: { sample_rate: 7999 } }).message).toContain('8000 to 48000');
    expect(refusal({ type: 'session.update', session: { sample_rate: 16000.5 } }).code).toBe('invalid_params');
    expect(refusal({ type: 'session.update', session: { language: 'xx' } }).message).toContain('auto, en, de');
    expect(refusal({ type: 'session.update', session: { language: 'en' } }, [])).toMatchObject({ code: 'unsupported_param' });
    expect(refusal({ type: 'session.update', session: { speed: 1 } })).toMatchObject({ code: 'unsupported_param', message: expect.stringContaining('session.speed') });
    expect(refusal({ type: 'input_audio.end', force: true })).toMatchObject({ code: 'unsupported_param', message: expect.stringContaining('"force"') });
  });
});
