/** The Vocabulary settings' fields ⇄ the PUT body: one entry per line, "from => to", bad lines named. */
import { describe, expect, it } from 'vitest';
import { bodyFrom, draftFrom } from '../../../../src-renderer/src/settings/vocabulary-form.js';

describe('vocabulary form', () => {
  it('reads one hotword and one replacement per line, skipping blank lines', () => {
    expect(bodyFrom({ hotwords: ' Voxdesk \n\nAda Lovelace\n', replacements: 'vox desk => Voxdesk\n\n gonna→going to ' })).toEqual({
      body: { hotwords: ['Voxdesk', 'Ada Lovelace'], replacements: [{ from: 'vox desk', to: 'Voxdesk' }, { from: 'gonna', to: 'going to' }] },
    });
    expect(bodyFrom({ hotwords: '', replacements: '' })).toEqual({ body: { hotwords: [], replacements: [] } });
  });
  it('names the first replacement line that is not "from => to"', () => {
    expect(bodyFrom({ hotwords: '', replacements: 'a => b\n\nno separator' })).toEqual({ badLine: 3 });
    expect(bodyFrom({ hotwords: '', replacements: ' => b' })).toEqual({ badLine: 1 });
    expect(bodyFrom({ hotwords: '', replacements: 'a => b => c' })).toEqual({ badLine: 1 });
  });
  it('shows a stored vocabulary as it reads it back', () => {
    const stored = { hotwords: ['Voxdesk'], replacements: [{ from: 'vox desk', to: 'Voxdesk' }] };
    expect(draftFrom(stored)).toEqual({ hotwords: 'Voxdesk', replacements: 'vox desk => Voxdesk' });
    expect(bodyFrom(draftFrom(stored))).toEqual({ body: stored });
  });
});
