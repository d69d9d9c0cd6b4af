/**
 * What only the PostgreSQL store has: change notifications telling this node's commits from the others', the
 * listening connection coming back after the server dropped it (caches hold nothing meanwhile), a URL's own startup
 * options kept (a schema of its own through search_path), byte order of text whatever the database's collation, and
 * a transaction's statements sent one at a time when a function starts several at once.
 */
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPostgresStore, type PostgresStore } from '../../../src-main/store/postgres/postgres-store.js';
import { connectionConfig } from '../../../src-main/store/postgres/pool.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js';
import { jobId, jobRow } from './store-fixture.js';

async function eventually(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the condition never held');
}

let database: TestDatabase;
const open: PostgresStore[] = [];
const store = async (options: Parameters<typeof createPostgresStore>[1] = {}, url = database.url): Promise<PostgresStore> => {
  const made = await createPostgresStore(url, { poolSize: 3, ...options });
  open.push(made);
  return made;
};
beforeEach(async () => {
  database = await createTestDatabase('pgstore');
});
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
  await database.drop();
});

describe('the PostgreSQL store', () => {
  it('counts other nodes’ commits, not its own, and tells listeners which were whose', async () => {
    const a = await store({ nodeId: 'node a' });
    const b = await store({ nodeId: 'node-b' });
    const heard: boolean[] = [];
    a.onCommit((own) => heard.push(own));
    const before = await a.othersVersion();
    await a.repos.settings.set('mine', 1);
    await b.repos.settings.set('theirs', 1);
    await eventually(() => heard.length >= 2);
    expect(heard).toEqual([true, false]);
    expect(await a.othersVersion()).toBe(before + 1);
    await a.tx(async (t) => {
      await t.repos.settings.set('one', 1);
      await t.repos.settings.set('two', 2);
      await t.repos.accounts.createAccount('carol');
    });
    await eventually(() => heard.length >= 3);
    await b.repos.settings.get('mine'); // a read sends nothing
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heard).toEqual([true, false, true]); // one notification for the whole transaction
  });

  it('a stamp taken while a transaction of this store has written but not committed is stale once it commits', async () => {
    const s = await store();
    await s.repos.settings.set('value', 'old');
    let written!: () => void;
    let release!: () => void;
    const wrote = new Promise<void>((resolve) => (written = resolve));
    const held = new Promise<void>((resolve) => (release = resolve));
    const tx = s.tx(async (t) => {
      await t.repos.settings.set('value', 'new');
      written();
      await held;
    });
    await wrote;
    const stamp = await s.changes.take();
    expect(await s.repos.settings.get('value')).toBe('old'); // what a cache would keep with that stamp
    release();
    await tx;
    expect(await s.changes.unchanged(stamp)).toBe(false);
  });

  it('a key revoked in a transaction is forgotten when it commits, though read as active meanwhile', async () => {
    const s = await store();
    const account = await s.repos.accounts.createAccount('alice');
    const created = await s.repos.accounts.createApiKey(account.id);
    let revoked!: () => void;
    let release!: () => void;
    const done = new Promise<void>((resolve) => (revoked = resolve));
    const held = new Promise<void>((resolve) => (release = resolve));
    const tx = s.tx(async (t) => {
      await t.repos.accounts.revokeApiKey(created.id);
      revoked();
      await held;
    });
    await done;
    expect(await s.repos.accounts.findKey(created.key)).toBeDefined(); // not committed: still active, and remembered
    release();
    await tx;
    expect(await s.repos.accounts.findKey(created.key)).toBeUndefined();
  });

  it('the unmarked stamp moves again when a transaction that queued a job commits', async () => {
    const s = await store();
    const acc = (await s.repos.accounts.createAccount('a')).id;
    let inserted!: () => void;
    let release!: () => void;
    const done = new Promise<void>((resolve) => (inserted = resolve));
    const held = new Promise<void>((resolve) => (release = resolve));
    const tx = s.tx(async (t) => {
      await t.repos.jobs.insert(jobRow(acc, jobId(1)));
      inserted();
      await held;
    });
    await done;
    // A scheduler pass now: it finds nothing yet, and keeps the stamp it saw.
    const seen = await s.repos.jobs.unmarkedStamp();
    expect(await s.repos.jobs.queuedUnmarked(10)).toEqual([]);
    release();
    await tx;
    expect(await s.repos.jobs.unmarkedStamp()).not.toBe(seen);
    expect(await s.repos.jobs.queuedUnmarked(10)).toHaveLength(1);
  });

  it('when the server drops the listening connection, caches are dropped and it listens again', async () => {
    const a = await store({ applicationName: 'voxdesk-under-test' });
    const b = await store({ applicationName: 'voxdesk-other' });
    const admin = new pg.Client(connectionConfig(database.url));
    await admin.connect();
    try {
      const before = await a.othersVersion();
      const killed = await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'voxdesk-under-test' AND query LIKE 'LISTEN%'",
      );
      expect(killed.rowCount).toBe(1);
      // No commit was made, yet the count moves: notifications may have been missed, so what was cached is dropped
      // (and while the connection is down every read answers a new number).
      await eventually(async () => (await a.othersVersion()) !== before);
      await eventually(async () => (await admin.query("SELECT 1 FROM pg_stat_activity WHERE application_name = 'voxdesk-under-test' AND query LIKE 'LISTEN%'")).rowCount === 1);
      await eventually(async () => (await a.othersVersion()) === (await a.othersVersion()));
      const settled = await a.othersVersion();
      await b.repos.settings.set('after', true);
      await eventually(async () => (await a.othersVersion()) !== settled);
    } finally {
      await admin.end();
    }
  });

  it('keeps the startup options of the URL: a store in a schema of its own', async () => {
    const admin = new pg.Client(connectionConfig(database.url));
    await admin.connect();
    try {
      await admin.query('CREATE SCHEMA voxdesk_a; CREATE SCHEMA voxdesk_b');
      const url = (schema: string): string => `${database.url}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
      const a = await store({}, url('voxdesk_a'));
      const b = await store({}, url('voxdesk_b'));
      await a.repos.settings.set('where', 'a');
      await b.repos.settings.set('where', 'b');
      expect(await a.repos.settings.get('where')).toBe('a');
      expect(await b.repos.settings.get('where')).toBe('b');
      const tables = await admin.query("SELECT schemaname, count(*)::int AS n FROM pg_tables WHERE tablename = 'jobs' GROUP BY schemaname ORDER BY schemaname");
      expect(tables.rows).toEqual([{ schemaname: 'voxdesk_a', n: 1 }, { schemaname: 'voxdesk_b', n: 1 }]);
    } finally {
      await admin.end();
    }
  });

  it('orders and pages text byte by byte in a database whose own collation would not', async () => {
    const admin = new pg.Client(connectionConfig(database.url));
    await admin.connect();
    const name = `${database.name}_icu`;
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'`);
    try {
      const check = await admin.query("SELECT 'job_B' < 'job_a' COLLATE \"en-US-x-icu\" AS icu, 'job_B' < 'job_a' COLLATE \"C\" AS bytes");
      expect(check.rows).toEqual([{ icu: false, bytes: true }]);
      const icu = await store({}, database.url.replace(/\/[^/]+$/, `/${name}`));
      const acc = (await icu.repos.accounts.createAccount('a')).id;
      for (const id of ['job_a', 'job_B', 'job_Z', 'job_b']) await icu.repos.jobs.insert(jobRow(acc, id));
      expect((await icu.repos.jobs.queued(10)).map((r) => r.id)).toEqual(['job_B', 'job_Z', 'job_a', 'job_b']);
      expect((await icu.repos.jobs.queuedAfter({ created_at: '2026-05-01T12:00:00.000Z', id: 'job_Z' }, 10)).map((r) => r.id)).toEqual(['job_a', 'job_b']);
      await icu.close();
      open.splice(open.indexOf(icu), 1);
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    }
  });

  it('runs the statements a transaction starts at once one after another, in order', async () => {
    const s = await store();
    const acc = (await s.repos.accounts.createAccount('a')).id;
    await s.tx(async (t) => {
      await Promise.all(Array.from({ length: 20 }, (_, i) => t.repos.jobs.insert(jobRow(acc, jobId(i)))));
      const [count, first] = await Promise.all([t.repos.jobs.queued(100), t.repos.jobs.get(jobId(0))]);
      expect(count).toHaveLength(20);
      expect(first?.id).toBe(jobId(0));
    });
    expect(await s.repos.jobs.queued(100)).toHaveLength(20);
  });

  it('says which database it cannot reach, without its password', async () => {
    const port = new URL(database.url).port;
    const nowhere = `postgres://voxdesk:s3cret-pass@127.0.0.1:1/voxdesk`;
    const error = await createPostgresStore(nowhere).then(() => null, (e: unknown) => e as Error);
    expect(error?.message).toMatch(/^cannot use the PostgreSQL database at postgres:\/\/voxdesk:\*\*\*@127\.0\.0\.1:1\/voxdesk: .*ECONNREFUSED.*--database or VOXDESK_DATABASE_URL/);
    expect(error?.message).not.toContain('s3cret');
    const missing = database.url.replace(/\/[^/]+$/, '/no_such_database');
    await expect(createPostgresStore(missing)).rejects.toThrow(
      new RegExp(`cannot use the PostgreSQL database at .*:${port}/no_such_database: database "no_such_database" does not exist`),
    );
  });

  it('a transaction whose connection the server drops fails; the process and the store carry on', async () => {
    const s = await store({ applicationName: 'voxdesk-dropped' });
    const admin = new pg.Client(connectionConfig(database.url));
    await admin.connect();
    try {
      const failed = s.tx(async (t) => {
        await t.repos.settings.set('half', true);
        await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'voxdesk-dropped' AND state = 'idle in transaction'");
        await new Promise((resolve) => setTimeout(resolve, 100)); // the drop reaches the idle connection meanwhile
        await t.repos.settings.set('rest', true);
      });
      await expect(failed).rejects.toThrow();
      expect(await s.repos.settings.get('half')).toBeUndefined();
      await s.repos.settings.set('after', true);
      expect(await s.repos.settings.get('after')).toBe(true);
    } finally {
      await admin.end();
    }
  });

  it('refuses work after close, and answers flush at once (a commit is durable when it answers)', async () => {
    const s = await store();
    await s.flush();
    await s.close();
    await s.close();
    await expect(s.tx(async () => 1)).rejects.toThrow(/closed/);
    open.splice(open.indexOf(s), 1);
  });
});
