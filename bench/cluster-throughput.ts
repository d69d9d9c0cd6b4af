/**
 * Cluster throughput on PostgreSQL (issue 28): N trivial jobs (the test engine's 'succeed', no work) created by an
 * API-node job engine that runs none, and run by 1, then 2 worker-node job engines — each a store of its own (its own
 * pool and change-notification listener) with one engine process, woken by the others' commits as `voxdesk worker` is
 * (service/engine-parts.ts) — against N bare PostgreSQL insert+update transactions on the same server in the same run.
 * The figures that matter are ratios: 2 workers against 1 (how far a second worker node adds throughput), and each
 * against the bare insert+update rate (what the engine's bookkeeping costs per job on the database).
 *
 * The database: VOXDESK_BENCH_DATABASE_URL (an empty database the bench may fill), else a private PostgreSQL started
 * for the run (Debian's postgresql, test/helpers/postgres.ts) and removed after it. The lead runs it; prints one JSON
 * line. Usage: node --import tsx bench/cluster-throughput.ts [N=300] [rounds=3]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { NO_LIMITS, type ModelDefinition } from '../src-main/engines/model-definition.js';
import { createJobService, type JobEngine } from '../src-main/jobs/engine/job-service.js';
import { createPostgresStore, type PostgresStore } from '../src-main/store/postgres/postgres-store.js';

process.env.VOXDESK_TEST_ENGINES = '1';
process.env.VOXDESK_TEST_RUN ??= String(process.pid); // numeric: the helper removes the clusters of a run by its number
const count = Number(process.argv[2] ?? 300);
const rounds = Number(process.argv[3] ?? 3);

const model: ModelDefinition = {
  id: 'bench', name: 'bench', description: 'test engine', capability: 'asr', products: ['speech-to-text'], provider: 'local',
  engine: 'test', engineConfig: {}, languages: ['en'], live: false, acceptsSpeed: false, limits: NO_LIMITS, paramsSchema: {},
  status: 'available', reason: null,
};

interface Node {
  store: PostgresStore;
  engine: JobEngine;
  stop(): Promise<void>;
}

/** A node: its own store and job engine, woken by the other nodes' commits. */
async function startNode(url: string, dir: string, runsJobs: boolean): Promise<Node> {
  const store = await createPostgresStore(url);
  const engine = createJobService({ store, dataDir: dir, resolveModel: () => model, workers: 1, runsJobs });
  const unsubscribe = store.onCommit((own) => {
    if (!own) void engine.othersCommitted().catch(() => undefined);
  });
  await engine.start();
  await engine.workersReady();
  return {
    store,
    engine,
    async stop() {
      unsubscribe();
      await engine.shutdown(0);
      await store.close();
    },
  };
}

async function clusterRun(url: string, dir: string, workers: number): Promise<number> {
  const api = await startNode(url, mkdtempSync(join(dir, 'api-')), false);
  const nodes = [];
  for (let i = 0; i < workers; i++) nodes.push(await startNode(url, mkdtempSync(join(dir, `worker-${i}-`)), true));
  try {
    const accountId = (await api.store.repos.accounts.ensureAccount(`bench-${workers}-${Date.now()}`)).id;
    const job = (i: number) => ({ accountId, product: 'speech-to-text' as const, modelId: 'bench', name: `j${i}`, language: null, params: { behaviour: 'succeed' }, input: {} });
    // One job through every worker first: process start-up and the first claim are not what is measured.
    const warm = await Promise.all(nodes.map((_, i) => api.engine.createJob(job(-1 - i))));
    await Promise.all(warm.map(({ job: w }) => api.engine.waitForTerminal(w.id, 60_000)));
    const start = performance.now();
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push((await api.engine.createJob(job(i))).job.id);
    await Promise.all(ids.map((id) => api.engine.waitForTerminal(id, 600_000)));
    return (performance.now() - start) / 1000;
  } finally {
    await Promise.all([api, ...nodes].map((node) => node.stop()));
  }
}

async function bareRun(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const accountId = `acc_bare_${Date.now()}`;
    const now = new Date().toISOString();
    await client.query('INSERT INTO accounts (id, name, created_at) VALUES ($1, $1, $2)', [accountId, now]);
    const start = performance.now();
    for (let i = 0; i < count; i++) {
      const id = `job_bare_${accountId}_${i}`;
      const at = new Date().toISOString();
      await client.query(
        `INSERT INTO jobs (id, account_id, product, model_id, status, params_json, input_json, created_at, updated_at)
         VALUES ($1, $2, 'speech-to-text', 'bench', 'queued', '{}', '{}', $3, $3)`,
        [id, accountId, at],
      );
      await client.query("UPDATE jobs SET status = 'succeeded', finished_at = $1, updated_at = $1 WHERE id = $2", [at, id]);
    }
    return (performance.now() - start) / 1000;
  } finally {
    await client.end();
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const helper = process.env.VOXDESK_BENCH_DATABASE_URL ? null : await import('../test/helpers/postgres.js');
const database = helper ? await helper.createTestDatabase('bench_cluster') : null;
const url = process.env.VOXDESK_BENCH_DATABASE_URL ?? database!.url;
const dir = mkdtempSync(join(tmpdir(), 'voxdesk-bench-cluster-'));
try {
  const load = loadavg()[0]!;
  // The schema first (the first store migrates).
  await (await createPostgresStore(url)).close();
  const each: { one: number; two: number; bare: number }[] = [];
  for (let round = 0; round < rounds; round++) {
    each.push({ one: await clusterRun(url, dir, 1), two: await clusterRun(url, dir, 2), bare: await bareRun(url) });
  }
  const perSecond = (seconds: number): number => count / seconds;
  console.log(
    JSON.stringify({
      bench: 'cluster-throughput',
      jobs: count,
      rounds,
      one_worker_jobs_per_second: +median(each.map((r) => perSecond(r.one))).toFixed(1),
      two_workers_jobs_per_second: +median(each.map((r) => perSecond(r.two))).toFixed(1),
      bare_postgres_per_second: +median(each.map((r) => perSecond(r.bare))).toFixed(1),
      two_over_one: +median(each.map((r) => r.one / r.two)).toFixed(3),
      one_worker_over_bare: +median(each.map((r) => r.bare / r.one)).toFixed(4),
      two_workers_over_bare: +median(each.map((r) => r.bare / r.two)).toFixed(4),
      load_average: +load.toFixed(2),
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
  await database?.drop();
  if (helper) helper.removeClusters(process.env.VOXDESK_TEST_RUN!);
}
