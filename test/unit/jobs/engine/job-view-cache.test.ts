import { beforeEach, describe, expect, it } from 'vitest';
import type { Job } from '../../../../src-main/common/api-types.js';
import { createJobViewCache } from '../../../../src-main/jobs/engine/job-view-cache.js';
import { createChangeStamp } from '../../../../src-main/store/change-stamp.js';
import type { Store } from '../../../../src-main/store/store.js';
import { useTwoConnections } from '../../../helpers/two-connections.js';

const connections = useTwoConnections("CREATE TABLE IF NOT EXISTS j (id TEXT PRIMARY KEY, status TEXT); INSERT INTO j VALUES ('job_1', 'queued')");
let changes: Store['changes'];
beforeEach(() => {
  // As the SQLite store answers it (store/sqlite-store.ts).
  const stamp = createChangeStamp(connections.db);
  changes = { take: async () => stamp.take(), unchanged: async (token) => stamp.unchanged(token) };
});

/** A builder over the real table that counts how often it ran. */
function builder(base = () => 'http://a'): { build: (id: string) => () => Promise<{ accountId: string; view: Job } | undefined>; runs: () => number } {
  let runs = 0;
  const read = connections.db.prepare<[string], { id: string; status: string }>('SELECT id, status FROM j WHERE id = ?');
  return {
    runs: () => runs,
    build: (id) => async () => {
      runs++;
      const row = read.get(id);
      return row ? { accountId: 'acc_1', view: { id: row.id, status: row.status, result: { artifacts: [{ url: `${base()}/x` }] } } as unknown as Job } : undefined;
    },
  };
}

describe('job view cache', () => {
  it('serves the same view while nothing is written, and builds afresh after a write here or in another connection', async () => {
    const cache = createJobViewCache(changes, () => 'http://a');
    const b = builder();
    expect((await cache.get('job_1', b.build('job_1')))?.view.status).toBe('queued');
    expect((await cache.get('job_1', b.build('job_1')))?.view.status).toBe('queued');
    expect(b.runs()).toBe(1);

    connections.db.prepare("UPDATE j SET status = 'running'").run();
    expect((await cache.get('job_1', b.build('job_1')))?.view.status).toBe('running');
    expect(b.runs()).toBe(2);

    connections.other.prepare("UPDATE j SET status = 'succeeded'").run();
    expect((await cache.get('job_1', b.build('job_1')))?.view.status).toBe('succeeded');
    expect(b.runs()).toBe(3);
    expect((await cache.get('job_1', b.build('job_1')))?.view.status).toBe('succeeded');
    expect(b.runs()).toBe(3);
  });

  it('builds afresh when the base URL of artifact links changed', async () => {
    let base = 'http://a';
    const cache = createJobViewCache(changes, () => base);
    const b = builder(() => base);
    expect((await cache.get('job_1', b.build('job_1')))?.view.result?.artifacts?.[0]?.url).toBe('http://a/x');
    base = 'http://b';
    expect((await cache.get('job_1', b.build('job_1')))?.view.result?.artifacts?.[0]?.url).toBe('http://b/x');
    expect(b.runs()).toBe(2);
  });

  it('never keeps a miss, so a job created later is found', async () => {
    const cache = createJobViewCache(changes, () => 'http://a');
    const b = builder();
    expect(await cache.get('job_2', b.build('job_2'))).toBeUndefined();
    connections.db.prepare("INSERT INTO j VALUES ('job_2', 'queued')").run();
    expect((await cache.get('job_2', b.build('job_2')))?.view.id).toBe('job_2');
  });

  it('hands out frozen views, deep: callers share them', async () => {
    const cache = createJobViewCache(changes, () => 'http://a');
    const view = (await cache.get('job_1', builder().build('job_1')))!.view;
    expect(Object.isFrozen(view)).toBe(true);
    expect(Object.isFrozen(view.result?.artifacts?.[0])).toBe(true);
    expect(() => {
      (view as { status: string }).status = 'failed';
    }).toThrow(TypeError);
  });

  it('keeps at most `size` views, forgetting the oldest', async () => {
    const cache = createJobViewCache(changes, () => 'http://a', 2);
    connections.db.exec("INSERT INTO j VALUES ('job_2', 'queued'), ('job_3', 'queued')");
    const b = builder();
    for (const id of ['job_1', 'job_2', 'job_3']) await cache.get(id, b.build(id));
    expect(b.runs()).toBe(3);
    await cache.get('job_3', b.build('job_3'));
    await cache.get('job_2', b.build('job_2'));
    expect(b.runs()).toBe(3);
    await cache.get('job_1', b.build('job_1'));
    expect(b.runs()).toBe(4);
  });
});
