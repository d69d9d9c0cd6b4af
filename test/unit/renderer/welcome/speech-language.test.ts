/** The language the welcome screen asks a recommendation for (src-renderer/src/welcome/speech-language.ts). */
import { describe, expect, it } from 'vitest';
import { speechLanguage } from '../../../../src-renderer/src/welcome/speech-language.js';

describe('the language of the recommendation', () => {
  it('follows the language chosen for the interface, else the system’s first', () => {
    expect(speechLanguage(null, ['fr-CA', 'en'])).toBe('fr');
    expect(speechLanguage('de', ['fr-CA'])).toBe('de');
    expect(speechLanguage(null, ['pt_BR'])).toBe('pt');
    expect(speechLanguage(null, [])).toBe('en');
  });
});
