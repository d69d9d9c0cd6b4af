/** Each account's vocabulary on both backends: none until put, replaced whole by a put, one row per account. */
import { describe, expect, it } from 'vitest';
import { BACKENDS, useStore } from './store-fixture.js';

describe.each(BACKENDS)('vocabulary on %s', (backend) => {
  const fx = useStore(backend);

  it('is undefined until put, then what was put, replaced whole by the next put, per account', async () => {
    const { vocabulary } = fx.store.repos;
    expect(await vocabulary.get('acct_a')).toBeUndefined();
    const first = { hotwords: ['Voxdesk', 'Ada Lovelace'], replacements: [{ from: 'vox desk', to: 'Voxdesk' }] };
    await vocabulary.put('acct_a', first);
    expect(await vocabulary.get('acct_a')).toEqual(first);
    expect(await vocabulary.get('acct_b')).toBeUndefined();
    await vocabulary.put('acct_a', { hotwords: [], replacements: [{ from: 'ümlaut', to: 'Ümlaut' }] });
    expect(await vocabulary.get('acct_a')).toEqual({ hotwords: [], replacements: [{ from: 'ümlaut', to: 'Ümlaut' }] });
    await vocabulary.put('acct_b', first);
    expect(await vocabulary.get('acct_b')).toEqual(first);
  });

  it('a put inside a transaction that fails leaves the vocabulary as it was', async () => {
    const { vocabulary } = fx.store.repos;
    await vocabulary.put('acct_c', { hotwords: ['one'], replacements: [] });
    await expect(
      fx.store.tx(async ({ repos }) => {
        await repos.vocabulary.put('acct_c', { hotwords: ['two'], replacements: [] });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await vocabulary.get('acct_c')).toEqual({ hotwords: ['one'], replacements: [] });
  });
});
