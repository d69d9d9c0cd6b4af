/**
 * The store itself on both backends: a transaction commits or rolls back whole, a savepoint alone, a change stamp
 * moves with every write (this node's at once, another node's once its notification arrives), and `flush` and
 * `close` answer.
 */
import { describe, expect, it } from 'vitest';
import { BACKENDS, useStore } from './store-fixture.js';

async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the condition never held');
}

describe.each(BACKENDS)('the store on %s', (backend) => {
  const fx = useStore(backend);

  it('commits a transaction whole, and rolls it back whole when it throws', async () => {
    expect(fx.store.dialect).toBe(backend);
    const id = await fx.store.tx(async (t) => {
      const account = await t.repos.accounts.createAccount('alice');
      await t.repos.settings.set('owner', account.id);
      return account.id;
    });
    expect(await fx.store.repos.settings.get('owner')).toBe(id);
    await expect(
      fx.store.tx(async (t) => {
        await t.repos.accounts.createAccount('bob');
        await t.repos.settings.set('owner', 'bob');
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await fx.store.repos.settings.get('owner')).toBe(id);
    expect(await fx.store.repos.accounts.ensureAccount('bob')).toMatchObject({ name: 'bob' }); // bob was never created
  });

  it('a savepoint rolls back alone; the transaction goes on', async () => {
    await fx.store.tx(async (t) => {
      await t.repos.settings.set('a', 1);
      await expect(
        t.tx(async (inner) => {
          await inner.repos.settings.set('b', 2);
          throw new Error('inner');
        }),
      ).rejects.toThrow('inner');
      expect(await t.tx(async (inner) => {
        await inner.repos.settings.set('c', 3);
        return inner.tx(async (deeper) => (await deeper.repos.settings.get<number>('c'))! + 1);
      })).toBe(4);
    });
    expect(await fx.store.repos.settings.all()).toEqual({ a: 1, c: 3 });
  });

  it('a failed statement inside a savepoint leaves the transaction usable', async () => {
    await fx.store.tx(async (t) => {
      await t.repos.accounts.createAccount('alice');
      await expect(t.tx((inner) => inner.repos.accounts.createAccount('alice'))).rejects.toThrow();
      await t.repos.settings.set('after', true);
    });
    expect(await fx.store.repos.settings.get('after')).toBe(true);
  });

  it('a change stamp moves with this store’s writes, inside a transaction too', async () => {
    const before = await fx.store.changes.take();
    expect(await fx.store.changes.unchanged(before)).toBe(true);
    await fx.store.repos.settings.get('x');
    expect(await fx.store.changes.unchanged(before)).toBe(true);
    await fx.store.repos.settings.set('x', 1);
    expect(await fx.store.changes.unchanged(before)).toBe(false);
    const inside = await fx.store.changes.take();
    await fx.store.tx(async (t) => {
      await t.repos.settings.set('y', 2);
    });
    expect(await fx.store.changes.unchanged(inside)).toBe(false);
    // A write that changed no row changes nothing.
    const quiet = await fx.store.changes.take();
    expect(await fx.store.repos.settings.delete('never-set')).toBe(false);
    await fx.store.repos.jobs.markInputPurged('job_missing', '2026-05-01T12:00:00.000Z');
    expect(await fx.store.changes.unchanged(quiet)).toBe(true);
    expect(typeof (await fx.store.othersVersion())).toBe('number');
    await fx.store.flush();
  });

  it('othersVersion moves with another node’s commits', async () => {
    const other = await fx.another();
    if (other === fx.store) return; // SQLite: one process owns the file (data_version is covered by others-commits.test.ts)
    const before = await fx.store.othersVersion();
    const stamp = await fx.store.changes.take();
    await other.repos.settings.set('from-elsewhere', true);
    await eventually(async () => (await fx.store.othersVersion()) !== before);
    expect(await fx.store.changes.unchanged(stamp)).toBe(false);
  });
});
