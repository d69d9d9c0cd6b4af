/** Saved voices on both backends: per account, listed oldest first, renamed, deleted, their recordings' bytes summed. */
import { describe, expect, it } from 'vitest';
import type { SavedVoiceRow } from '../../../src-main/store/saved-voices-repo.js';
import { BACKENDS, useStore } from './store-fixture.js';

function voice(id: string, accountId: string, over: Partial<SavedVoiceRow> = {}): SavedVoiceRow {
  return {
    id,
    account_id: accountId,
    name: `voice ${id}`,
    kind: 'designed',
    model_id: 'kokoro-multi-lang-v1_0',
    recipe_json: JSON.stringify({ voices: [{ name: 'af_bella', speaker: 2, weight: 1 }] }),
    reference_path: null,
    reference_bytes: 0,
    reference_text: null,
    created_at: `2026-11-28T04:00:0${id.at(-1)}.000Z`,
    updated_at: `2026-11-28T04:00:0${id.at(-1)}.000Z`,
    ...over,
  };
}

describe.each(BACKENDS)('saved voices on %s', (backend) => {
  const fx = useStore(backend);

  it('keeps each account its own voices: listed oldest first, got by id, another account sees nothing', async () => {
    const { savedVoices } = fx.store.repos;
    await savedVoices.create(voice('voice_2', 'acct_a'));
    await savedVoices.create(voice('voice_1', 'acct_a', { name: 'Narrator' }));
    await savedVoices.create(voice('voice_3', 'acct_b'));
    expect((await savedVoices.list('acct_a')).map((v) => v.id)).toEqual(['voice_1', 'voice_2']);
    expect(await savedVoices.get('acct_a', 'voice_1')).toEqual(voice('voice_1', 'acct_a', { name: 'Narrator' }));
    expect(await savedVoices.get('acct_b', 'voice_1')).toBeUndefined();
    expect(await savedVoices.rename('acct_b', 'voice_1', 'Stolen', '2026-11-28T05:00:00.000Z')).toBe(false);
    expect(await savedVoices.delete('acct_b', 'voice_1')).toBeUndefined();
    expect((await savedVoices.get('acct_a', 'voice_1'))!.name).toBe('Narrator');
  });

  it('renames and deletes, answering the deleted row; counts the cloned recordings\' bytes per account', async () => {
    const { savedVoices } = fx.store.repos;
    await savedVoices.create(voice('voice_4', 'acct_c'));
    const cloned = voice('voice_5', 'acct_c', { kind: 'cloned', model_id: null, recipe_json: null, reference_path: 'uploads/acct_c/ref.wav', reference_bytes: 320044, reference_text: 'Hello there.' });
    await savedVoices.create(cloned);
    await savedVoices.create(voice('voice_6', 'acct_d', { kind: 'cloned', reference_path: 'x.wav', reference_bytes: 7 }));
    expect(await savedVoices.referenceBytes('acct_c')).toBe(320044);
    expect(await savedVoices.referenceBytes('acct_e')).toBe(0);
    expect(await savedVoices.rename('acct_c', 'voice_4', 'Calm', '2026-11-28T05:00:00.000Z')).toBe(true);
    expect(await savedVoices.get('acct_c', 'voice_4')).toMatchObject({ name: 'Calm', updated_at: '2026-11-28T05:00:00.000Z' });
    expect(await savedVoices.delete('acct_c', 'voice_5')).toEqual(cloned);
    expect(await savedVoices.delete('acct_c', 'voice_5')).toBeUndefined();
    expect(await savedVoices.referenceBytes('acct_c')).toBe(0);
  });

  it('refuses a kind other than designed or cloned', async () => {
    await expect(fx.store.repos.savedVoices.create(voice('voice_7', 'acct_f', { kind: 'stolen' as 'cloned' }))).rejects.toThrow();
  });
});
