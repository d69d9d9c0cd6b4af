/** A vocabulary's checks, and replacements: whole words only, in any case, the case of the result kept sensible. */
import { describe, expect, it } from 'vitest';
import { applyReplacements, MAX_HOTWORDS, parseVocabulary } from '../../../src-main/common/vocabulary.js';

describe('parseVocabulary', () => {
  it('takes both lists, trimmed, with spaces collapsed', () => {
    expect(parseVocabulary({ hotwords: [' Voxdesk ', 'Ada   Lovelace'], replacements: [{ from: 'vox  desk', to: 'Voxdesk' }] })).toEqual({
      hotwords: ['Voxdesk', 'Ada Lovelace'],
      replacements: [{ from: 'vox desk', to: 'Voxdesk' }],
    });
    expect(parseVocabulary({ hotwords: [], replacements: [] })).toEqual({ hotwords: [], replacements: [] });
  });
  it.each([
    [{ hotwords: [] }, 'invalid_request', /replacements must be an array/],
    [{ replacements: [] }, 'invalid_request', /hotwords must be an array/],
    [{ hotwords: [], replacements: [], extra: 1 }, 'unsupported_param', /unknown field "extra"/],
    [{ hotwords: [''], replacements: [] }, 'invalid_request', /hotwords\[0\] must be 1–100 characters/],
    [{ hotwords: ['a, b'], replacements: [] }, 'invalid_request', /must not hold "," or ":"/],
    [{ hotwords: ['Word', 'word'], replacements: [] }, 'invalid_request', /hotwords\[1\] \("word"\) is given twice/],
    [{ hotwords: [3], replacements: [] }, 'invalid_request', /hotwords\[0\] must be a string/],
    [{ hotwords: Array.from({ length: MAX_HOTWORDS + 1 }, (_, i) => `w${i}`), replacements: [] }, 'invalid_request', /at most 200/],
    [{ hotwords: [], replacements: [{ from: 'a' }] }, 'invalid_request', /replacements\[0\]\.to must be a string/],
    [{ hotwords: [], replacements: [{ from: 'a', to: 'b', why: 'c' }] }, 'unsupported_param', /replacements\[0\]\.why/],
    [{ hotwords: [], replacements: ['a'] }, 'invalid_request', /replacements\[0\] must be an object/],
    [{ hotwords: [], replacements: [{ from: 'A', to: 'b' }, { from: 'a', to: 'c' }] }, 'invalid_request', /replacements\[1\]\.from \("a"\) is given twice/],
    [{ hotwords: [], replacements: [{ from: 'a\u0007', to: 'b' }] }, 'invalid_request', /without control characters/],
  ])('refuses %j', (body, code, message) => {
    expect(() => parseVocabulary(body as Record<string, unknown>)).toThrow(expect.objectContaining({ code, message: expect.stringMatching(message) }));
  });
});

describe('applyReplacements', () => {
  const vox = [{ from: 'vox desk', to: 'Voxdesk' }];
  it('replaces whole words in any case, across any spaces, and leaves parts of words alone', () => {
    expect(applyReplacements('I use vox desk daily. Vox Desk is great; VOX   DESK!', vox)).toBe('I use Voxdesk daily. Voxdesk is great; Voxdesk!');
    expect(applyReplacements('voxdesks and paravox desk', vox)).toBe('voxdesks and paravox desk');
    expect(applyReplacements('the cat sat', [{ from: 'at', to: 'on' }])).toBe('the cat sat');
  });
  it('an all-lower-case replacement follows the case of what it replaces', () => {
    const r = [{ from: 'gonna', to: 'going to' }];
    expect(applyReplacements('gonna. Gonna! GONNA', r)).toBe('going to. Going to! GOING TO');
  });
  it('the longest match wins, and letters of other scripts count as word characters', () => {
    const r = [{ from: 'new york', to: 'New York' }, { from: 'new york city', to: 'NYC' }, { from: 'straße', to: 'Strasse' }];
    expect(applyReplacements('new york city and new york', r)).toBe('NYC and New York');
    expect(applyReplacements('die straße, die straßenbahn', r)).toBe('die Strasse, die straßenbahn');
  });
  it('special characters in a from are matched as text', () => {
    expect(applyReplacements('call c++ (now)', [{ from: 'c++', to: 'C++' }])).toBe('call C++ (now)');
    expect(applyReplacements('a.b axb', [{ from: 'a.b', to: 'X' }])).toBe('X axb');
  });
  it('no replacements: the text as it was', () => {
    expect(applyReplacements('unchanged', [])).toBe('unchanged');
  });
});
