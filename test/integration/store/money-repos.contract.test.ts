/**
 * Batches, the ledger, idempotency keys and the spending cap's reads on both backends — and on PostgreSQL the rules
 * that hold across nodes: two open batches per account (count-then-insert under the account's lock), one charge per
 * job and kind, one job per idempotency key, one reservation of the last dollar.
 */
import { describe, expect, it } from 'vitest';
import type { BatchRow } from '../../../src-main/store/batches-repo.js';
import type { NewCharge } from '../../../src-main/store/ledger-repo.js';
import type { Store } from '../../../src-main/store/store.js';
import { BACKENDS, jobId, jobRow, useStore } from './store-fixture.js';

function batchRow(accountId: string, id: string, overrides: Partial<BatchRow> = {}): BatchRow {
  return {
    id, account_id: accountId, product: 'speech-to-text', model_id: 'tiny', params_json: '{"a":1}', status: 'open', file_count: 2,
    language: 'en', pending_code: null, pending_message: null, price_json: null, estimated_usd_micro: 100, reserved_usd_micro: null,
    reserved_at: null, created_at: '2026-05-01T12:00:00.000Z', finished_at: null, ...overrides,
  };
}

function charge(accountId: string, overrides: Partial<NewCharge> = {}): NewCharge {
  return {
    account_id: accountId, job_id: null, batch_id: null, model_id: 'm', product: 'speech-to-text', provider: 'local', kind: 'usage',
    option_name: '', seconds: 60, amount_usd_micro: 6000, created_at: '2026-05-01T12:00:00.000Z', ...overrides,
  };
}

describe.each(BACKENDS)('batches on %s', (backend) => {
  const fx = useStore(backend);

  it('stores batches and items, pending items until attached, counts and pages', async () => {
    const acc = (await fx.store.repos.accounts.createAccount('a')).id;
    const { batches } = fx.store.repos;
    await batches.insert(batchRow(acc, 'bat_1'));
    await batches.insert(batchRow(acc, 'bat_2', { created_at: '2026-05-01T12:00:01.000Z', product: 'text-to-speech' }));
    expect(await batches.get('bat_1')).toEqual(batchRow(acc, 'bat_1'));
    expect(await batches.get('bat_missing')).toBeUndefined();
    await batches.insertItem({ batch_id: 'bat_1', position: 1, name: 'b.wav', job_id: null, pending_input_json: '{"p":1}', estimated_seconds: 2.5 });
    await batches.insertItem({ batch_id: 'bat_1', position: 0, name: 'a.wav', job_id: null, pending_input_json: '{"p":0}', estimated_seconds: null });
    expect((await batches.items('bat_1')).map((i) => i.position)).toEqual([0, 1]);
    expect(await batches.pendingItems('bat_1')).toHaveLength(2);
    expect(await batches.withPendingItems(10)).toEqual(['bat_1']);
    expect(await batches.countPending(acc)).toBe(2);
    expect(await batches.countPending(null)).toBe(2);
    expect(await batches.countPending('acc_other')).toBe(0);
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(1), { batch_id: 'bat_1' }));
    expect(await batches.attachJob('bat_1', 0, jobId(1))).toBe(true);
    expect(await batches.attachJob('bat_1', 0, jobId(1))).toBe(false);
    expect(await batches.items('bat_1')).toEqual([
      { batch_id: 'bat_1', position: 0, name: 'a.wav', job_id: jobId(1), pending_input_json: null, estimated_seconds: null },
      { batch_id: 'bat_1', position: 1, name: 'b.wav', job_id: null, pending_input_json: '{"p":1}', estimated_seconds: 2.5 },
    ]);
    expect((await batches.pendingItems('bat_1')).map((i) => i.position)).toEqual([1]);
    await batches.setPendingReason('bat_1', 'waiting_for_network', 'offline');
    await batches.reserve('bat_1', 5000, '2026-05-01T12:00:05.000Z');
    expect(await batches.get('bat_1')).toMatchObject({ pending_code: 'waiting_for_network', pending_message: 'offline', reserved_usd_micro: 5000, reserved_at: '2026-05-01T12:00:05.000Z' });
    expect(await batches.countOpen(acc)).toBe(2);
    expect(await batches.complete('bat_1', '2026-05-01T13:00:00.000Z')).toBe(true);
    expect(await batches.complete('bat_1', '2026-05-01T13:00:00.000Z')).toBe(false);
    expect(await batches.get('bat_1')).toMatchObject({ status: 'complete', finished_at: '2026-05-01T13:00:00.000Z', pending_code: null, pending_message: null });
    expect(await batches.countOpen(acc)).toBe(1);
    expect(await batches.withPendingItems(10)).toEqual([]); // complete batches are not placed
    const ids = (rows: BatchRow[]): string[] => rows.map((b) => b.id);
    expect(ids(await batches.page(acc, null, null, 10))).toEqual(['bat_2', 'bat_1']);
    expect(ids(await batches.page(acc, 'speech-to-text', null, 10))).toEqual(['bat_1']);
    expect(ids(await batches.page(acc, null, { created_at: '2026-05-01T12:00:01.000Z', id: 'bat_2' }, 10))).toEqual(['bat_1']);
    expect(ids(await batches.page(acc, null, null, 1))).toEqual(['bat_2']);
    await fx.store.tx((t) => t.repos.batches.lockAccount(acc));
    await fx.store.repos.batches.lockAccount(acc);
  });

  it('keeps two open batches per account when many transactions on two nodes add one at once', async () => {
    const acc = (await fx.store.repos.accounts.createAccount('a')).id;
    const nodes: Store[] = [fx.store, await fx.another()];
    const attempts = Array.from({ length: 6 }, (_, i) =>
      nodes[i % 2]!.tx(async (t) => {
        await t.repos.batches.lockAccount(acc);
        if ((await t.repos.batches.countOpen(acc)) >= 2) return false;
        await t.repos.batches.insert(batchRow(acc, `bat_${i}`));
        return true;
      }),
    );
    expect((await Promise.all(attempts)).filter(Boolean)).toHaveLength(2);
    expect(await fx.store.repos.batches.countOpen(acc)).toBe(2);
  });
});

describe.each(BACKENDS)('ledger, idempotency and spending on %s', (backend) => {
  const fx = useStore(backend);

  it('charges once per job, kind and option and once per batch and kind; sums by day, model and product', async () => {
    const acc = (await fx.store.repos.accounts.createAccount('a')).id;
    const { ledger } = fx.store.repos;
    expect(await ledger.charge(charge(acc, { job_id: 'job_1' }))).toBe(true);
    expect(await ledger.charge(charge(acc, { job_id: 'job_1', amount_usd_micro: 1 }))).toBe(false);
    expect(await ledger.charge(charge(acc, { job_id: 'job_1', kind: 'option', option_name: 'diarization', amount_usd_micro: 100, seconds: 60 }))).toBe(true);
    expect(await ledger.charge(charge(acc, { batch_id: 'bat_1', kind: 'request_fee', seconds: 0, amount_usd_micro: 50_000 }))).toBe(true);
    expect(await ledger.charge(charge(acc, { batch_id: 'bat_1', kind: 'request_fee', seconds: 0, amount_usd_micro: 50_000 }))).toBe(false);
    expect(await ledger.charge(charge(acc, { job_id: 'job_2', batch_id: 'bat_1', model_id: 'remote:big', provider: 'remote', product: 'text-to-speech', created_at: '2026-05-02T01:00:00.000Z', seconds: 1.5, amount_usd_micro: 150 }))).toBe(true);
    const rows = await ledger.forAccount(acc);
    // In the order charged (PostgreSQL's ids may have gaps: a charge refused still used one up).
    expect(rows.map((r) => [r.kind, r.job_id ?? r.batch_id])).toEqual([['usage', 'job_1'], ['option', 'job_1'], ['request_fee', 'bat_1'], ['usage', 'job_2']]);
    expect(rows.every((r, i) => i === 0 || r.id > rows[i - 1]!.id)).toBe(true);
    expect(rows[3]).toEqual({ id: rows[3]!.id, ...charge(acc, { job_id: 'job_2', batch_id: 'bat_1', model_id: 'remote:big', provider: 'remote', product: 'text-to-speech', created_at: '2026-05-02T01:00:00.000Z', seconds: 1.5, amount_usd_micro: 150 }) });
    expect(await ledger.totalMicro(acc)).toBe(6000 + 100 + 50_000 + 150);
    expect(await ledger.totalMicro('acc_none')).toBe(0);
    const query = { accountId: acc, fromIso: '2026-05-01T00:00:00.000Z', toIso: '2026-05-03T00:00:00.000Z' };
    expect(await ledger.usage({ ...query, groupBy: 'day' })).toEqual([
      { key: '2026-05-01', provider: 'local', kind: 'option', amount_usd_micro: 100, seconds: 60, rows: 1 },
      { key: '2026-05-01', provider: 'local', kind: 'request_fee', amount_usd_micro: 50_000, seconds: 0, rows: 1 },
      { key: '2026-05-01', provider: 'local', kind: 'usage', amount_usd_micro: 6000, seconds: 60, rows: 1 },
      { key: '2026-05-02', provider: 'remote', kind: 'usage', amount_usd_micro: 150, seconds: 1.5, rows: 1 },
    ]);
    expect((await ledger.usage({ ...query, groupBy: 'model' })).map((u) => [u.key, u.kind])).toEqual([
      ['m', 'option'], ['m', 'request_fee'], ['m', 'usage'], ['remote:big', 'usage'],
    ]);
    expect((await ledger.usage({ ...query, groupBy: 'product', toIso: '2026-05-02T00:00:00.000Z' })).map((u) => u.key)).toEqual([
      'speech-to-text', 'speech-to-text', 'speech-to-text',
    ]);
  });

  it('sums a batch’s item usage in whole milliseconds, rounding halves away from zero as SQLite does', async () => {
    const acc = (await fx.store.repos.accounts.createAccount('a')).id;
    await fx.store.repos.batches.insert(batchRow(acc, 'bat_1'));
    const seconds = [0.0005, 1.0014999999999998, 2.25, 0.1 + 0.2]; // ×1000: 0.5, 1001.4999999999999, 2250, 300.00000000000006
    for (const [i, s] of seconds.entries()) {
      await fx.store.repos.jobs.insert(jobRow(acc, jobId(i), { batch_id: 'bat_1' }));
      await fx.store.repos.ledger.charge(charge(acc, { job_id: jobId(i), batch_id: 'bat_1', seconds: s }));
      await fx.store.repos.ledger.charge(charge(acc, { job_id: jobId(i), batch_id: 'bat_1', kind: 'option', option_name: 'x', seconds: 100 }));
    }
    expect(await fx.store.repos.ledger.batchUsageSeconds('bat_1')).toBe((1 + 1001 + 2250 + 300) / 1000);
    expect(await fx.store.repos.ledger.batchUsageSeconds('bat_none')).toBe(0);
  });

  it('finds an idempotency key until it expires, then forgets it; purges expired keys', async () => {
    const acc = (await fx.store.repos.accounts.createAccount('a')).id;
    const { idempotency } = fx.store.repos;
    const row = { account_id: acc, key: 'k', request_hash: 'h', resource_type: 'job' as const, resource_id: 'job_1', created_at: 'a', expires_at: '2026-05-02T12:00:00.000Z' };
    await idempotency.insert(row);
    await idempotency.insert({ ...row, key: 'old', expires_at: '2026-05-01T00:00:00.000Z' });
    await expect(idempotency.insert(row)).rejects.toThrow();
    expect(await idempotency.find(acc, 'k', '2026-05-02T00:00:00.000Z')).toEqual(row);
    expect(await idempotency.find('acc_other', 'k', '2026-05-02T00:00:00.000Z')).toBeUndefined();
    expect(await idempotency.purgeExpired('2026-05-01T12:00:00.000Z')).toBe(1);
    expect(await idempotency.find(acc, 'k', '2026-05-02T12:00:00.000Z')).toBeUndefined();
    expect(await idempotency.purgeExpired('2026-05-03T00:00:00.000Z')).toBe(0);
  });

  it('one request per idempotency key when two nodes send it at once', async () => {
    const acc = (await fx.store.repos.accounts.createAccount('a')).id;
    const nodes: Store[] = [fx.store, await fx.another()];
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        nodes[i % 2]!.tx(async (t) => {
          const found = await t.repos.idempotency.find(acc, 'same', '2026-05-01T12:00:00.000Z');
          if (found) return found.resource_id;
          await t.repos.jobs.insert(jobRow(acc, jobId(i)));
          await t.repos.idempotency.insert({ account_id: acc, key: 'same', request_hash: 'h', resource_type: 'job', resource_id: jobId(i), created_at: 'now', expires_at: '2026-05-02T12:00:00.000Z' });
          return jobId(i);
        }),
      ),
    );
    expect(new Set(results).size).toBe(1);
    expect(await fx.store.repos.jobs.page({ accountId: acc, product: null, status: null, after: null, limit: 10 })).toHaveLength(1);
  });

  it('reads hosted charges, reservations of jobs, open batches and live sessions, and the work waiting for the budget', async () => {
    const acc = (await fx.store.repos.accounts.createAccount('a')).id;
    const { spending } = fx.store.repos;
    await fx.store.repos.ledger.charge(charge(acc, { job_id: 'job_x', provider: 'remote', amount_usd_micro: 700 }));
    await fx.store.repos.ledger.charge(charge(acc, { job_id: 'job_y', provider: 'local', amount_usd_micro: 9 }));
    expect(await spending.hostedChargedMicro('2026-05-01T00:00:00.000Z', '2026-06-01T00:00:00.000Z')).toBe(700);
    expect(await spending.hostedChargedMicro('2026-05-01T12:00:00.001Z', '2026-06-01T00:00:00.000Z')).toBe(0);
    const since = '2026-05-01T11:59:00.000Z';
    expect(await spending.reservedMicro(since)).toBe(0);
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(1), { reserved_usd_micro: 1000, status: 'running' }));
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(2), { reserved_usd_micro: 500, status: 'succeeded' }));
    await fx.store.repos.batches.insert(batchRow(acc, 'bat_1', { reserved_usd_micro: 300 }));
    await fx.store.repos.ledger.charge(charge(acc, { batch_id: 'bat_1', kind: 'request_fee', amount_usd_micro: 100 }));
    await fx.store.repos.batches.insert(batchRow(acc, 'bat_2', { reserved_usd_micro: 50 }));
    await fx.store.repos.ledger.charge(charge(acc, { batch_id: 'bat_2', kind: 'request_fee', amount_usd_micro: 80 }));
    expect(await spending.reservedMicro(since)).toBe(1000 + 200 + 0);
    await spending.reserveLive({ id: 'live_1', accountId: acc, modelId: 'remote:x', micro: 40, at: '2026-05-01T12:00:00.000Z', staleIso: since });
    await spending.extendLive('live_1', 60, '2026-05-01T12:00:10.000Z');
    expect(await spending.reservedMicro(since)).toBe(1300);
    expect(await spending.reservedMicro('2026-05-01T12:00:10.001Z')).toBe(1200);
    await spending.renewLive('live_1', '2026-05-01T12:01:00.000Z');
    expect(await spending.reservedMicro('2026-05-01T12:00:10.001Z')).toBe(1300);
    // A new session's reservation clears the rows of sessions that died.
    await spending.reserveLive({ id: 'live_2', accountId: acc, modelId: 'remote:x', micro: 1, at: '2026-05-01T12:10:00.000Z', staleIso: '2026-05-01T12:05:00.000Z' });
    expect(await fx.rows('SELECT id FROM live_reservations')).toEqual([{ id: 'live_2' }]);
    await spending.releaseLive('live_2');
    expect(await spending.reservedMicro(since)).toBe(1200);

    expect(await spending.oldestWaiting()).toBeUndefined();
    expect(await spending.countWaiting()).toBe(0);
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(3), { error_code: 'waiting_for_budget', created_at: '2026-05-01T12:00:02.000Z' }));
    await fx.store.repos.batches.insert(batchRow(acc, 'bat_3', { pending_code: 'waiting_for_budget', created_at: '2026-05-01T12:00:01.000Z' }));
    await fx.store.repos.batches.insertItem({ batch_id: 'bat_3', position: 0, name: null, job_id: null, pending_input_json: '{}', estimated_seconds: null });
    await fx.store.repos.batches.insertItem({ batch_id: 'bat_3', position: 1, name: null, job_id: null, pending_input_json: '{}', estimated_seconds: null });
    expect(await spending.oldestWaiting()).toEqual({ created_at: '2026-05-01T12:00:01.000Z', id: 'bat_3' });
    expect(await spending.countWaiting()).toBe(3);
    await fx.store.tx((t) => t.repos.spending.lockForReservation());
  });

  it('two nodes checking the cap and reserving at once never both take the last dollar', async () => {
    const acc = (await fx.store.repos.accounts.createAccount('a')).id;
    const cap = 1000;
    const nodes: Store[] = [fx.store, await fx.another()];
    const reserved = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        nodes[i % 2]!.tx(async (t) => {
          await t.repos.spending.lockForReservation();
          if ((await t.repos.spending.reservedMicro('2026-05-01T00:00:00.000Z')) + 400 > cap) return false;
          await t.repos.spending.reserveLive({ id: `live_${i}`, accountId: acc, modelId: 'remote:x', micro: 400, at: '2026-05-01T12:00:00.000Z', staleIso: '2026-05-01T00:00:00.000Z' });
          return true;
        }),
      ),
    );
    expect(reserved.filter(Boolean)).toHaveLength(2);
    expect(await fx.store.repos.spending.reservedMicro('2026-05-01T00:00:00.000Z')).toBe(800);
  });

  it('two nodes charging the same job charge it once', async () => {
    const acc = (await fx.store.repos.accounts.createAccount('a')).id;
    const nodes: Store[] = [fx.store, await fx.another()];
    const charged = await Promise.all(
      Array.from({ length: 6 }, (_, i) => nodes[i % 2]!.tx((t) => t.repos.ledger.charge(charge(acc, { job_id: 'job_1', amount_usd_micro: i + 1 })))),
    );
    expect(charged.filter(Boolean)).toHaveLength(1);
    expect(await fx.store.repos.ledger.forAccount(acc)).toHaveLength(1);
  });
});
