/**
 * Accounts and keys, settings and sealed secrets: the same behaviour on both backends — and on PostgreSQL, two nodes
 * ensuring one account or registering one key at once, and a key revoked on one node refused on the other.
 */
import { describe, expect, it } from 'vitest';
import { hashKey, KEY_PATTERN } from '../../../src-main/store/accounts-repo.js';
import { BACKENDS, useStore } from './store-fixture.js';

const CHOSEN = 'test-key-0123456789abcdefgh';

/** Resolves once `check` is true (a notification from another node arrives a moment after its commit). */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the condition never held');
}

describe.each(BACKENDS)('accounts and keys on %s', (backend) => {
  const fx = useStore(backend);

  it('creates accounts and keys shown once, stores only the hash, finds the account by key until revoked', async () => {
    const { accounts } = fx.store.repos;
    const account = await accounts.createAccount('  alice ');
    expect(account).toEqual({ id: expect.stringMatching(/^acc_/), name: 'alice', created_at: '2026-05-01T12:00:00.000Z' });
    expect(await accounts.getAccount(account.id)).toEqual(account);
    expect(await accounts.getAccount('acc_missing')).toBeUndefined();
    const created = await accounts.createApiKey(account.id, 'laptop');
    expect(created.key).toMatch(KEY_PATTERN);
    expect(created.prefix).toBe(created.key.slice(0, 8));
    const stored = await fx.rows<{ key_hash: string }>('SELECT key_hash FROM api_keys');
    expect(stored).toEqual([{ key_hash: hashKey(created.key) }]);
    expect(JSON.stringify(await fx.rows('SELECT * FROM api_keys'))).not.toContain(created.key);
    expect(await accounts.findAccountByKey(created.key)).toEqual(account);
    expect(await accounts.findKey(created.key)).toEqual({ keyId: created.id, account });
    expect(await accounts.findKey(created.key)).toEqual({ keyId: created.id, account }); // remembered
    expect(await accounts.findAccountByKey('vdk_wrong')).toBeUndefined();
    expect(await accounts.findKey('')).toBeUndefined();
    expect(await accounts.isKeyActive(created.id)).toBe(true);
    expect(await accounts.revokeApiKey(created.id)).toBe(true);
    expect(await accounts.revokeApiKey(created.id)).toBe(false);
    expect(await accounts.findAccountByKey(created.key)).toBeUndefined();
    expect(await accounts.isKeyActive(created.id)).toBe(false);
    await expect(accounts.createAccount(' ')).rejects.toThrow(/non-empty/);
    await expect(accounts.createApiKey('acc_missing')).rejects.toThrow(/unknown account/);
    await expect(accounts.createAccount('alice')).rejects.toThrow();
  });

  it('ensureAccount and registerApiKey are idempotent; a key of another account, a short or a revoked one is refused', async () => {
    const { accounts } = fx.store.repos;
    const a = await accounts.ensureAccount('local');
    expect(await accounts.ensureAccount(' local ')).toEqual(a);
    await expect(accounts.ensureAccount('')).rejects.toThrow(/non-empty/);
    await accounts.registerApiKey(a.id, CHOSEN, 'operator');
    await accounts.registerApiKey(a.id, CHOSEN);
    const listed = await accounts.listApiKeys(a.id);
    expect(listed).toEqual([
      {
        id: expect.stringMatching(/^key_/), account_id: a.id, account: 'local', name: 'operator', prefix: `fp:${hashKey(CHOSEN).slice(0, 8)}`,
        created_at: '2026-05-01T12:00:00.000Z', last_used_at: null, revoked_at: null,
      },
    ]);
    const b = await accounts.createAccount('bob');
    await expect(accounts.registerApiKey(b.id, CHOSEN)).rejects.toThrow(/another account/);
    await expect(accounts.registerApiKey(b.id, 'short')).rejects.toThrow(/at least 24/);
    await accounts.revokeApiKey(listed[0]!.id);
    await expect(accounts.registerApiKey(a.id, CHOSEN)).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('lists keys per account and all of them oldest first, reads one, and records a use', async () => {
    const { accounts } = fx.store.repos;
    const a = await accounts.createAccount('a');
    const b = await accounts.createAccount('b');
    const k1 = await accounts.createApiKey(a.id);
    fx.clock.advance(1000);
    const k2 = await accounts.createApiKey(b.id, 'ci');
    fx.clock.advance(1000);
    const k3 = await accounts.createApiKey(a.id);
    expect((await accounts.listApiKeys(a.id)).map((k) => k.id)).toEqual([k1.id, k3.id]);
    expect((await accounts.listAllApiKeys()).map((k) => [k.id, k.account])).toEqual([[k1.id, 'a'], [k2.id, 'b'], [k3.id, 'a']]);
    await accounts.touchKey(k2.id, '2026-05-01T13:00:00.000Z');
    expect(await accounts.getApiKey(k2.id)).toMatchObject({ name: 'ci', last_used_at: '2026-05-01T13:00:00.000Z', account_id: b.id });
    expect(await accounts.getApiKey('key_missing')).toBeUndefined();
  });

  it('a key revoked on another node is refused here once its commit is known', async () => {
    const account = await fx.store.repos.accounts.createAccount('alice');
    const created = await fx.store.repos.accounts.createApiKey(account.id);
    expect(await fx.store.repos.accounts.findKey(created.key)).toBeDefined(); // remembered from here on
    const other = await fx.another();
    expect(await other.repos.accounts.revokeApiKey(created.id)).toBe(true);
    await eventually(async () => (await fx.store.repos.accounts.findKey(created.key)) === undefined);
  });

  it('two nodes ensuring one account and registering one key at once end with one of each', async () => {
    const other = await fx.another();
    const stores = [fx.store, other, fx.store, other];
    const ensured = await Promise.all(stores.map((s) => s.tx((t) => t.repos.accounts.ensureAccount('shared'))));
    expect(new Set(ensured.map((a) => a.id)).size).toBe(1);
    await Promise.all(stores.map((s) => s.tx((t) => t.repos.accounts.registerApiKey(ensured[0]!.id, CHOSEN))));
    expect(await fx.store.repos.accounts.listAllApiKeys()).toHaveLength(1);
  });
});

describe.each(BACKENDS)('settings and secrets on %s', (backend) => {
  const fx = useStore(backend);

  it('stores JSON settings by key', async () => {
    const { settings } = fx.store.repos;
    await settings.set('workers', 3);
    await settings.set('remote', { url: 'https://example.test', enabled: false });
    await settings.set('remote', { url: 'https://example.test', enabled: true });
    await settings.set('Zeta', null);
    expect(await settings.get<number>('workers')).toBe(3);
    expect(await settings.get('remote')).toEqual({ url: 'https://example.test', enabled: true });
    expect(await settings.get('missing')).toBeUndefined();
    expect(Object.keys(await settings.all())).toEqual(['Zeta', 'remote', 'workers']);
    expect(await settings.delete('workers')).toBe(true);
    expect(await settings.delete('workers')).toBe(false);
    await expect(settings.set('x', undefined)).rejects.toThrow(/not a JSON value/);
  });

  it('keeps sealed secrets as bytes with their cipher', async () => {
    const { secrets } = fx.store.repos;
    const sealed = Buffer.from([0, 1, 2, 255, 0, 39, 92]);
    await secrets.put('remote.key', { sealed, sealedBy: 'key-file' });
    await secrets.put('other', { sealed: Buffer.from('x'), sealedBy: 'os-keyring' });
    await secrets.put('other', { sealed: Buffer.from('y'), sealedBy: 'key-file' });
    const got = await secrets.get('remote.key');
    expect(Buffer.isBuffer(got!.sealed)).toBe(true);
    expect(got).toEqual({ sealed, sealedBy: 'key-file' });
    expect(await secrets.get('missing')).toBeUndefined();
    expect(await secrets.sealedBy()).toEqual(['key-file']);
    await secrets.checkpoint();
    expect(await secrets.delete('other')).toBe(true);
    expect(await secrets.delete('other')).toBe(false);
  });
});
