/**
 * The jobs repository's contract, on both backends through the asynchronous store: rows come back as inserted,
 * compare-and-set writes, the queue's order and pages (text compared byte by byte: `job_B` before `job_a`), leases,
 * counts — and on PostgreSQL, claims racing from two nodes.
 */
import { describe, expect, it } from 'vitest';
import { BACKENDS, jobId, jobRow, useStore } from './store-fixture.js';

describe.each(BACKENDS)('jobs repository on %s', (backend) => {
  const fx = useStore(backend);
  const account = async (): Promise<string> => (await fx.store.repos.accounts.createAccount('alice')).id;

  it('inserts and reads a row whole, with or without its result, and the facts of its result', async () => {
    const acc = await account();
    const row = jobRow(acc, jobId(1), {
      result_json: JSON.stringify({ language: 'en', duration: 12.5, text: 'hi' }),
      progress: 0.25,
      estimated_usd_micro: 2_500_000_000_000,
      estimated_seconds: 1.5,
      duration_seconds: '12.500',
      deadline_at: '2026-05-02T12:00:00.000Z',
    });
    await fx.store.repos.jobs.insert(row);
    expect(await fx.store.repos.jobs.get(row.id)).toEqual({ ...row, input_purged_at: null });
    expect(await fx.store.repos.jobs.getWithoutResult(row.id)).toEqual({ ...row, result_json: null, input_purged_at: null });
    expect(await fx.store.repos.jobs.get('job_missing')).toBeUndefined();
    expect(await fx.store.repos.jobs.resultFacts(row.id)).toEqual({ language: 'en', duration: 12.5 });

    await fx.store.repos.jobs.insert(jobRow(acc, jobId(2), { result_json: 'not json' }));
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(3), { result_json: JSON.stringify({ language: 5, duration: '12' }) }));
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(4), { result_json: '[1, 2]' }));
    for (const id of [jobId(2), jobId(3), jobId(4), jobId(5)]) {
      expect(await fx.store.repos.jobs.resultFacts(id)).toEqual({ language: null, duration: null });
    }
  });

  it('writes only the given columns, and only while the row has the expected status (compare-and-set)', async () => {
    const acc = await account();
    const row = jobRow(acc, jobId(1));
    await fx.store.repos.jobs.insert(row);
    expect(await fx.store.repos.jobs.write(row.id, 'running', { progress: 0.5 })).toBe(false);
    expect(await fx.store.repos.jobs.write(row.id, 'queued', { status: 'running', claimed_by: 'node-a', attempts: 1, started_at: '2026-05-01T12:00:01.000Z' })).toBe(true);
    expect(await fx.store.repos.jobs.write(row.id, 'queued', { status: 'running', claimed_by: 'node-b' })).toBe(false);
    expect(await fx.store.repos.jobs.write(row.id, 'running', { progress: 0.5, error_code: undefined })).toBe(true);
    const stored = await fx.store.repos.jobs.get(row.id);
    expect(stored).toMatchObject({ status: 'running', claimed_by: 'node-a', attempts: 1, progress: 0.5, name: row.name, error_code: null });
    // No column: whether the status is the expected one.
    expect(await fx.store.repos.jobs.write(row.id, 'running', {})).toBe(true);
    expect(await fx.store.repos.jobs.write(row.id, 'queued', {})).toBe(false);
    expect(await fx.store.repos.jobs.write('job_missing', 'queued', {})).toBe(false);
    await expect(fx.store.repos.jobs.write(row.id, 'running', { id: 'x' } as never)).rejects.toThrow(/not a mutable column/);
  });

  it('lists the queue in (created_at, id) order byte by byte, pages it, and leaves paused jobs out', async () => {
    const acc = await account();
    const at = (s: number): string => `2026-05-01T12:00:0${s}.000Z`;
    const rows = [
      jobRow(acc, 'job_a', { created_at: at(1) }),
      jobRow(acc, 'job_B', { created_at: at(1) }),
      jobRow(acc, 'job_0', { created_at: at(2), error_code: 'paused' }),
      jobRow(acc, 'job_c', { created_at: at(2), error_code: 'waiting_for_capacity' }),
      jobRow(acc, 'job_Z', { created_at: at(3) }),
      jobRow(acc, 'job_r', { created_at: at(0), status: 'running', claimed_by: 'n' }),
    ];
    for (const row of [...rows].reverse()) await fx.store.repos.jobs.insert(row);
    const ids = (list: { id: string }[]): string[] => list.map((r) => r.id);
    expect(ids(await fx.store.repos.jobs.queued(10))).toEqual(['job_B', 'job_a', 'job_c', 'job_Z']);
    expect(ids(await fx.store.repos.jobs.queued(2))).toEqual(['job_B', 'job_a']);
    expect(ids(await fx.store.repos.jobs.queuedAfter(null, 2))).toEqual(['job_B', 'job_a']);
    expect(ids(await fx.store.repos.jobs.queuedAfter({ created_at: at(1), id: 'job_a' }, 10))).toEqual(['job_c', 'job_Z']);
    expect(ids(await fx.store.repos.jobs.queuedAfter({ created_at: at(1), id: 'job_B' }, 1))).toEqual(['job_a']);
    expect(ids(await fx.store.repos.jobs.queuedUnmarked(10))).toEqual(['job_B', 'job_a', 'job_Z']);
    expect(ids(await fx.store.repos.jobs.running())).toEqual(['job_r']);
    expect(await fx.store.repos.jobs.anyQueued()).toBe(true);
    for (const id of ['job_a', 'job_B', 'job_c', 'job_Z']) await fx.store.repos.jobs.write(id, 'queued', { status: 'cancelled' });
    expect(await fx.store.repos.jobs.anyQueued()).toBe(false); // a paused job is not waiting for the scheduler
  });

  it('moves the unmarked stamp when a row may be queued without a waiting code, and never when one leaves that state', async () => {
    const acc = await account();
    const s0 = await fx.store.repos.jobs.unmarkedStamp();
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(1)));
    const s1 = await fx.store.repos.jobs.unmarkedStamp();
    expect(s1).not.toBe(s0);
    await fx.store.repos.jobs.write(jobId(1), 'queued', { error_code: 'waiting_for_capacity' });
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(2), { status: 'succeeded' }));
    expect(await fx.store.repos.jobs.unmarkedStamp()).toBe(s1);
    await fx.store.repos.jobs.write(jobId(1), 'queued', { error_code: null });
    const s2 = await fx.store.repos.jobs.unmarkedStamp();
    expect(s2).not.toBe(s1);
    await fx.store.repos.jobs.write(jobId(2), 'succeeded', { status: 'queued' });
    expect(await fx.store.repos.jobs.unmarkedStamp()).not.toBe(s2);
    expect(typeof (await fx.store.repos.jobs.dataVersion())).toBe('number');
  });

  it('renews the leases an instance still holds and lists the lapsed ones', async () => {
    const acc = await account();
    const running = (n: number, by: string, lease: string | null): ReturnType<typeof jobRow> =>
      jobRow(acc, jobId(n), { status: 'running', claimed_by: by, lease_expires_at: lease, created_at: `2026-05-01T12:00:0${n}.000Z` });
    await fx.store.repos.jobs.insert(running(1, 'a', '2026-05-01T12:01:00.000Z'));
    await fx.store.repos.jobs.insert(running(2, 'a', '2026-05-01T12:01:00.000Z'));
    await fx.store.repos.jobs.insert(running(3, 'b', '2026-05-01T12:00:30.000Z'));
    await fx.store.repos.jobs.insert(running(4, 'b', null));
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(5), { claimed_by: 'a' }));
    expect(await fx.store.repos.jobs.renewLeases('a', [jobId(2), jobId(3), jobId(5), jobId(1)], '2026-05-01T12:02:00.000Z')).toEqual([jobId(2), jobId(1)]);
    expect(await fx.store.repos.jobs.renewLeases('a', [], '2026-05-01T12:02:00.000Z')).toEqual([]);
    expect((await fx.store.repos.jobs.get(jobId(1)))!.lease_expires_at).toBe('2026-05-01T12:02:00.000Z');
    expect((await fx.store.repos.jobs.get(jobId(3)))!.lease_expires_at).toBe('2026-05-01T12:00:30.000Z');
    expect((await fx.store.repos.jobs.lapsedLeases('2026-05-01T12:01:00.000Z')).map((r) => r.id)).toEqual([jobId(3)]);
    expect((await fx.store.repos.jobs.lapsedLeases('2026-05-01T12:00:30.000Z')).map((r) => r.id)).toEqual([]);
    expect((await fx.store.repos.jobs.lapsedLeases('2026-05-01T13:00:00.000Z')).map((r) => r.id)).toEqual([jobId(1), jobId(2), jobId(3)]);
  });

  it('finds overdue queued jobs, never paused ones or those waiting for the budget', async () => {
    const acc = await account();
    const due = '2026-05-01T12:00:00.000Z';
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(1), { deadline_at: due }));
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(2), { deadline_at: due, error_code: 'paused' }));
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(3), { deadline_at: due, error_code: 'waiting_for_budget' }));
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(4), { deadline_at: due, error_code: 'waiting_for_network' }));
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(5), { deadline_at: '2026-05-01T12:00:00.001Z' }));
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(6), { deadline_at: due, status: 'running' }));
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(7)));
    expect((await fx.store.repos.jobs.overdue(due)).map((r) => r.id).sort()).toEqual([jobId(1), jobId(4)]);
  });

  it('lists a batch’s jobs, pages an account’s jobs newest first by product and status, and counts the active ones', async () => {
    const acc = await account();
    const bob = (await fx.store.repos.accounts.createAccount('bob')).id;
    await fx.store.repos.batches.insert({
      id: 'bat_1', account_id: acc, product: 'speech-to-text', model_id: 'tiny', params_json: '{}', status: 'open', file_count: 2,
      language: null, pending_code: null, pending_message: null, price_json: null, estimated_usd_micro: null, reserved_usd_micro: null,
      reserved_at: null, created_at: '2026-05-01T12:00:00.000Z', finished_at: null,
    });
    const at = (s: number): string => `2026-05-01T12:00:${String(s).padStart(2, '0')}.000Z`;
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(1), { created_at: at(1), batch_id: 'bat_1' }));
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(2), { created_at: at(1), batch_id: 'bat_1', status: 'running' }));
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(3), { created_at: at(2), product: 'text-to-speech', error_code: 'waiting_for_capacity' }));
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(4), { created_at: at(3), status: 'succeeded' }));
    await fx.store.repos.jobs.insert(jobRow(bob, jobId(5), { created_at: at(4) }));
    const ids = (list: { id: string }[]): string[] => list.map((r) => r.id);
    expect(ids(await fx.store.repos.jobs.ofBatch('bat_1'))).toEqual([jobId(1), jobId(2)]);
    const page = (q: Partial<Parameters<typeof fx.store.repos.jobs.page>[0]>) =>
      fx.store.repos.jobs.page({ accountId: acc, product: null, status: null, after: null, limit: 10, ...q }).then(ids);
    expect(await page({})).toEqual([jobId(4), jobId(3), jobId(2), jobId(1)]);
    expect(await page({ limit: 2 })).toEqual([jobId(4), jobId(3)]);
    expect(await page({ after: { created_at: at(1), id: jobId(2) } })).toEqual([jobId(1)]);
    expect(await page({ after: { created_at: at(2), id: jobId(3) } })).toEqual([jobId(2), jobId(1)]);
    expect(await page({ product: 'text-to-speech' })).toEqual([jobId(3)]);
    expect(await page({ status: 'queued' })).toEqual([jobId(3), jobId(1)]);
    const counts = (list: { status: string; error_code: string | null; n: number }[]) =>
      [...list].sort((a, b) => `${a.status}${a.error_code}`.localeCompare(`${b.status}${b.error_code}`));
    expect(counts(await fx.store.repos.jobs.countByStatus(acc))).toEqual([
      { status: 'queued', error_code: null, n: 1 },
      { status: 'queued', error_code: 'waiting_for_capacity', n: 1 },
      { status: 'running', error_code: null, n: 1 },
    ]);
    expect(counts(await fx.store.repos.jobs.countByStatus(null))).toEqual([
      { status: 'queued', error_code: null, n: 2 },
      { status: 'queued', error_code: 'waiting_for_capacity', n: 1 },
      { status: 'running', error_code: null, n: 1 },
    ]);
  });

  it('lists finished jobs whose inputs are still kept, oldest first, and marks them purged', async () => {
    const acc = await account();
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(1), { status: 'succeeded', finished_at: '2026-04-02T00:00:00.000Z' }));
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(2), { status: 'failed', finished_at: '2026-04-01T00:00:00.000Z' }));
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(3), { status: 'succeeded', finished_at: '2026-04-30T00:00:00.000Z' }));
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(4)));
    expect(await fx.store.repos.jobs.inputsToPurge('2026-04-15T00:00:00.000Z', 10)).toEqual([
      { id: jobId(2), input_json: '{"kind":"text","text":"hello"}' },
      { id: jobId(1), input_json: '{"kind":"text","text":"hello"}' },
    ]);
    await fx.store.repos.jobs.markInputPurged(jobId(2), '2026-05-01T00:00:00.000Z');
    expect((await fx.store.repos.jobs.inputsToPurge('2026-04-15T00:00:00.000Z', 1)).map((r) => r.id)).toEqual([jobId(1)]);
    expect((await fx.store.repos.jobs.get(jobId(2)))!.input_purged_at).toBe('2026-05-01T00:00:00.000Z');
  });

  it('lets exactly one of many transactions on two nodes claim a queued job', async () => {
    const acc = await account();
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(1)));
    const nodes = [fx.store, await fx.another()];
    const claims = Array.from({ length: 8 }, (_, i) =>
      nodes[i % 2]!.tx(async (t) => {
        const row = await t.repos.jobs.get(jobId(1));
        if (row?.status !== 'queued') return false;
        return t.repos.jobs.write(jobId(1), 'queued', { status: 'running', claimed_by: `node-${i}`, attempts: row.attempts + 1 });
      }),
    );
    const won = (await Promise.all(claims)).map((ok, i) => (ok ? i : -1)).filter((i) => i >= 0);
    expect(won).toHaveLength(1);
    expect(await fx.store.repos.jobs.get(jobId(1))).toMatchObject({ status: 'running', claimed_by: `node-${won[0]}`, attempts: 1 });
  });

  it('a claim that waits behind another transaction’s write of the row sees its commit and fails', async () => {
    const acc = await account();
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(1)));
    const other = await fx.another();
    let written!: () => void;
    let release!: () => void;
    const wrote = new Promise<void>((resolve) => (written = resolve));
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = fx.store.tx(async (t) => {
      const ok = await t.repos.jobs.write(jobId(1), 'queued', { status: 'running', claimed_by: 'first' });
      written();
      await held;
      return ok;
    });
    await wrote;
    const second = other.tx((t) => t.repos.jobs.write(jobId(1), 'queued', { status: 'running', claimed_by: 'second' }));
    setImmediate(release);
    expect(await Promise.all([first, second])).toEqual([true, false]);
    expect((await other.repos.jobs.get(jobId(1)))!.claimed_by).toBe('first');
  });

  it('two passes reading the queue at once inside their transactions take different jobs (SKIP LOCKED on PostgreSQL)', async () => {
    const acc = await account();
    for (const n of [1, 2, 3]) await fx.store.repos.jobs.insert(jobRow(acc, jobId(n)));
    const other = await fx.another();
    let read!: () => void;
    let release!: () => void;
    const firstRead = new Promise<void>((resolve) => (read = resolve));
    const held = new Promise<void>((resolve) => (release = resolve));
    const claim = async (t: Parameters<Parameters<typeof fx.store.tx>[0]>[0], who: string, limit: number): Promise<string[]> => {
      const page = await t.repos.jobs.queuedAfter(null, limit);
      for (const row of page) expect(await t.repos.jobs.write(row.id, 'queued', { status: 'running', claimed_by: who })).toBe(true);
      return page.map((row) => row.id);
    };
    const first = fx.store.tx(async (t) => {
      const ids = await claim(t, 'first', 2);
      read();
      await held;
      return ids;
    });
    // On SQLite the second transaction waits for the first (one writer); on PostgreSQL it passes over its rows.
    if (backend === 'postgres') await firstRead;
    const second = other.tx((t) => claim(t, 'second', 2));
    if (backend === 'postgres') expect(await second).toEqual([jobId(3)]);
    release();
    expect(await first).toEqual([jobId(1), jobId(2)]);
    expect(await second).toEqual([jobId(3)]);
    expect((await fx.store.repos.jobs.get(jobId(3)))!.claimed_by).toBe('second');
  });
});
