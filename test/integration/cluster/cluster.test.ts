/**
 * A cluster of real processes (issue 28): one PostgreSQL database (test/helpers/postgres.ts), one storage folder,
 * two API nodes (`voxdesk serve --database … --storage …`) and two engine nodes (`voxdesk worker …`), all with the same
 * VOXDESK_API_KEY and a 3-second lease on running jobs.
 *
 * - Jobs sent to either API node all finish exactly once, are charged exactly once (one request fee and one usage row
 *   each, from the shared pricing file), run on the workers (the API nodes run none) and read the same from both
 *   API nodes; a held POST on one API node answers with the job a worker finished.
 * - A worker SIGKILLed while it runs a job: the job's lease lapses and the other worker takes it over and finishes it;
 *   the other worker's /metrics counts the lapsed lease.
 * - An API node SIGKILLed: the other keeps answering, jobs created on the dead one included.
 * - SIGTERM drains a worker: it exits 0, and the job it ran finishes (there, or on the other worker once returned).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../../src-main/common/api-types.js';
import { startApiNode, startWorkerNode, stopNode, type NodeProcess } from '../../helpers/cluster.js';
import { Client } from '../../helpers/http-client.js';
import { LiveClient } from '../../helpers/live-harness.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js';
import { SHARED } from '../../helpers/system.js';
import { scaled } from '../../helpers/time-scale.js';
import { until } from '../../helpers/wait.js';

const KEY = 'vdk_cluster_test_administering_key_0001';
const PRICE = { request_fee_usd: 0.05, per_minute_usd: 0.01 };
/** A text eSpeak takes a few seconds to speak and encode: long enough to be caught running. */
const LONG_TEXT = Array.from({ length: 60 }, (_, i) => `Sentence number ${i + 1} of a long text that a worker speaks while the test watches it.`).join(' ');

let db: TestDatabase;
let sql: pg.Pool;
let storage: string;
let pricingDir: string;
let apis: NodeProcess[] = [];
let workers: NodeProcess[] = [];

const client = (node: NodeProcess): Client => new Client(node.url, KEY);

async function createSpeech(node: NodeProcess, text: string): Promise<Job> {
  const response = await client(node).postJson('/v1/text-to-speech', { model: 'espeak-ng', text });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
  return (await response.json()) as Job;
}

async function jobOn(node: NodeProcess, id: string): Promise<Job> {
  const response = await client(node).get(`/v1/text-to-speech/${id}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Job;
}

/** Polls `read` until `done` holds (or fails the test after `ms`). */
/** This file's waits (helpers/wait.ts). */
const WAIT = { timeoutMs: scaled(60_000), everyMs: 100 };

/** A node's /metrics text: an API node's with the administering key, a worker's health port without. */
async function metricsOf(node: NodeProcess): Promise<string> {
  const response = await fetch(`${node.url}/metrics`, { headers: { authorization: `Bearer ${KEY}` } });
  expect(response.status).toBe(200);
  return response.text();
}

/** One unlabelled figure of a /metrics text. */
function figure(metrics: string, name: string): number {
  const match = new RegExp(`^${name} (\\S+)$`, 'm').exec(metrics);
  if (!match) throw new Error(`no ${name} in:\n${metrics}`);
  return Number(match[1]);
}

const terminal = (job: Job): boolean => ['succeeded', 'failed', 'cancelled', 'expired'].includes(job.status);

/** The pid in a job row's claimed_by (`host:pid:random`). */
async function claimedPid(id: string): Promise<number | null> {
  const row = (await sql.query<{ claimed_by: string | null; status: string }>('SELECT claimed_by, status FROM jobs WHERE id = $1', [id])).rows[0];
  if (!row?.claimed_by || row.status !== 'running') return null;
  return Number(row.claimed_by.split(':').at(-2));
}

beforeAll(async () => {
  db = await createTestDatabase('cluster');
  sql = new pg.Pool({ connectionString: db.url, max: 2 });
  storage = mkdtempSync(join(tmpdir(), 'voxdesk-cluster-storage-'));
  pricingDir = mkdtempSync(join(tmpdir(), 'voxdesk-cluster-pricing-'));
  const pricingFile = join(pricingDir, 'pricing.json');
  writeFileSync(pricingFile, JSON.stringify({ models: { 'espeak-ng': PRICE } }));
  const common = { databaseUrl: db.url, storageDir: storage, apiKey: KEY };
  const nodeArgs = ['--lease-seconds', '3', '--pricing-file', pricingFile, '--shutdown-grace', '20'];
  // The first node creates the schema; the others start together.
  apis = [await startApiNode({ ...common, args: [...nodeArgs, '--hold-seconds', '0'] })];
  const [api2, ...rest] = await Promise.all([
    startApiNode({ ...common, args: [...nodeArgs, '--hold-seconds', '30'] }),
    startWorkerNode({ ...common, args: [...nodeArgs, '--workers', '1'] }),
    startWorkerNode({ ...common, args: [...nodeArgs, '--workers', '1'] }),
  ]);
  apis.push(api2!);
  workers = rest;
}, scaled(120_000));

afterAll(async () => {
  await Promise.all([...apis, ...workers].map((node) => stopNode(node)));
  await sql?.end();
  await db?.drop();
  rmSync(storage, { recursive: true, force: true });
  rmSync(pricingDir, { recursive: true, force: true });
}, scaled(60_000));

describe('a cluster of two API nodes and two workers on one PostgreSQL database and one storage folder', () => {
  it('runs jobs sent to either API node exactly once on the workers, charges each once, and shows them on both API nodes', async () => {
    const created = await Promise.all(Array.from({ length: 16 }, (_, i) => createSpeech(apis[i % 2]!, `Cluster job number ${i + 1}.`)));
    const finished = await Promise.all(created.map((job) => until(`job ${job.id}`, () => jobOn(apis[0]!, job.id), terminal, WAIT)));
    expect(finished.filter((job) => job.status !== 'succeeded').map((job) => `${job.status}: ${job.error_message}`)).toEqual([]);
    // Read through the other API node: the same job, its artifact downloadable there.
    const other = await jobOn(apis[1]!, created[0]!.id);
    expect(other.status).toBe('succeeded');
    const link = other.result!.artifacts![0]!.url;
    expect(link.startsWith(apis[1]!.url)).toBe(true);
    const download = await fetch(link);
    expect(download.status).toBe(200);
    expect((await download.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    // Run on the workers only (the API nodes claimed none), each once (one attempt), and charged once.
    const attempts = (await sql.query<{ attempts: number }>('SELECT attempts FROM jobs WHERE id = ANY($1)', [created.map((j) => j.id)])).rows;
    expect(attempts.map((row) => Number(row.attempts))).toEqual(created.map(() => 1));
    for (const api of apis) expect(figure(await metricsOf(api), 'voxdesk_jobs_claimed_total')).toBe(0);
    const claims = await Promise.all(workers.map(async (worker) => figure(await metricsOf(worker), 'voxdesk_jobs_claimed_total')));
    expect(claims[0]! + claims[1]!).toBe(created.length);
    const charges = (await sql.query<{ job_id: string; kind: string; n: string }>('SELECT job_id, kind, COUNT(*) AS n FROM ledger WHERE job_id = ANY($1) GROUP BY job_id, kind', [created.map((j) => j.id)])).rows;
    expect(charges.filter((c) => c.kind === 'request_fee')).toHaveLength(created.length);
    expect(charges.every((c) => Number(c.n) === 1)).toBe(true);
    // A held POST on the API node that runs no jobs answers with the job a worker finished.
    const held = (await (await client(apis[1]!).postJson('/v1/text-to-speech', { model: 'espeak-ng', text: 'Held on one node, run on another.' })).json()) as Job;
    expect(held.status).toBe('succeeded');
    // A cluster charges the spec's request fee for on-device work by default; the pricing file's entries come first.
    const models = ((await (await client(apis[0]!).get('/v1/models')).json()) as { data: { id: string; provider: string; pricing: { request_fee_usd: number; per_minute_usd: number } }[] }).data;
    expect(models.find((m) => m.id === 'espeak-ng')!.pricing).toMatchObject(PRICE);
    const others = models.filter((m) => m.provider === 'local' && m.id !== 'espeak-ng');
    expect(others.length).toBeGreaterThan(0);
    for (const model of others) expect(model.pricing).toMatchObject({ request_fee_usd: 0.05, per_minute_usd: 0 });
    // The API nodes say what they are.
    const health = (await (await client(apis[0]!).get('/v1/health')).json()) as { role: string; database: string };
    expect(health).toMatchObject({ role: 'serve', database: 'ok' });
    expect(await (await fetch(`${workers[0]!.url}/health`)).json()).toMatchObject({ status: 'ok', role: 'worker', database: 'ok' });
  }, scaled(120_000));

  it('accepts on one API node, at once, a model another API node has just imported', async () => {
    const imported = (await (await client(apis[0]!).postJson('/v1/local/models/import', { path: join(SHARED, 'models/tiny/tiny-nemo-ctc'), id: 'tiny-ctc-fresh', languages: ['en'] })).json()) as { id: string };
    await until(
      'the import',
      () => client(apis[0]!).get(`/v1/local/models/${imported.id}`).then((r) => r.json() as Promise<{ state: string }>),
      (m) => m.state !== 'importing',
      WAIT,
    );
    // The other API node has not looked at the models since: its first request naming the model still finds it,
    // as a multipart upload (the id is looked for again once the body is in); an unknown id is still refused.
    const upload = await client(apis[1]!).postForm('/v1/speech-to-text', [
      { name: 'model', value: imported.id },
      { name: 'file', file: { name: 'jfk.wav', data: new Uint8Array(readFileSync(join(SHARED, 'audio/jfk.wav'))) } },
    ]);
    expect(upload.status, await upload.clone().text()).toBeLessThan(300);
    const unknown = await client(apis[1]!).postForm('/v1/speech-to-text', [
      { name: 'model', value: 'no-such-model' },
      { name: 'file', file: { name: 'jfk.wav', data: new Uint8Array(readFileSync(join(SHARED, 'audio/jfk.wav'))) } },
    ]);
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toMatch(/unknown model "no-such-model"/);
    // The OpenAI-compatible route looks the same way: a second import, named first on the other node through it.
    const second = (await (await client(apis[0]!).postJson('/v1/local/models/import', { path: join(SHARED, 'models/tiny/tiny-nemo-ctc'), id: 'tiny-ctc-fresh-openai', languages: ['en'] })).json()) as { id: string };
    await until(
      'the second import',
      () => client(apis[0]!).get(`/v1/local/models/${second.id}`).then((r) => r.json() as Promise<{ state: string }>),
      (m) => m.state !== 'importing',
      WAIT,
    );
    const openAi = await client(apis[1]!).postForm('/v1/audio/transcriptions', [
      { name: 'model', value: second.id },
      { name: 'file', file: { name: 'jfk.wav', data: new Uint8Array(readFileSync(join(SHARED, 'audio/jfk.wav'))) } },
    ]);
    expect(openAi.status, await openAi.clone().text()).toBe(200);
    expect(typeof ((await openAi.json()) as { text: unknown }).text).toBe('string');
    // And the live sockets: a voice imported through one API node speaks live on the other, on the first session.
    const voice = (await (await client(apis[0]!).postJson('/v1/local/models/import', { path: join(SHARED, 'models/tiny/tiny-vits'), id: 'tiny-vits-fresh', languages: ['en'] })).json()) as { id: string };
    await until(
      'the voice import',
      () => client(apis[0]!).get(`/v1/local/models/${voice.id}`).then((r) => r.json() as Promise<{ state: string }>),
      (m) => m.state !== 'importing',
      WAIT,
    );
    const live = await LiveClient.open(`${apis[1]!.url.replace(/^http/, 'ws')}/v1/text-to-speech/realtime?model=${voice.id}`, { authorization: `Bearer ${KEY}` });
    try {
      expect(await live.waitFor('session.created', scaled(60_000))).toMatchObject({ type: 'session.created' });
    } finally {
      live.close();
    }
  }, scaled(180_000));

  it('takes over the job of a worker killed while running it, once its lease lapsed, and counts the lapsed lease', async () => {
    const jobs = await Promise.all(Array.from({ length: 4 }, () => createSpeech(apis[0]!, LONG_TEXT)));
    const [victim, survivor] = workers as [NodeProcess, NodeProcess];
    // The first of them the victim runs.
    const caught = await until(
      'a job running on the worker to kill',
      async () => {
        for (const job of jobs) if ((await claimedPid(job.id)) === victim.pid) return job.id;
        return null;
      },
      (id) => id !== null,
      WAIT,
    );
    victim.child.kill('SIGKILL');
    await victim.exited;
    const finished = await Promise.all(jobs.map((job) => until(
      `job ${job.id}`,
      () => jobOn(apis[1]!, job.id),
      terminal,
      { ...WAIT, timeoutMs: scaled(90_000) },
    )));
    expect(finished.filter((job) => job.status !== 'succeeded').map((job) => `${job.status}: ${job.error_message}`)).toEqual([]);
    expect(Number((await sql.query<{ attempts: number }>('SELECT attempts FROM jobs WHERE id = $1', [caught])).rows[0]!.attempts)).toBe(1);
    const charges = (await sql.query<{ n: string }>("SELECT COUNT(*) AS n FROM ledger WHERE job_id = $1 AND kind = 'request_fee'", [caught])).rows[0]!;
    expect(Number(charges.n)).toBe(1);
    // Whichever live node's maintenance found the lapsed lease (API nodes sweep too) counted it.
    const expiries = await Promise.all([...apis, survivor].map(async (node) => figure(await metricsOf(node), 'voxdesk_lease_expiries_total')));
    expect(expiries.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    // A worker takes the victim's place.
    workers = [survivor, await startWorkerNode({ databaseUrl: db.url, storageDir: storage, apiKey: KEY, args: ['--lease-seconds', '3', '--workers', '1', '--pricing-file', join(pricingDir, 'pricing.json')] })];
  }, scaled(150_000));

  it('keeps answering on one API node when the other is killed, jobs created on the dead one included', async () => {
    // The node that holds POSTs goes; the one that answers at once stays (the drain test below needs that).
    const [standing, doomed] = apis as [NodeProcess, NodeProcess];
    const job = await createSpeech(doomed, 'Created on a node about to die.');
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    expect((await until('the job of the dead node', () => jobOn(standing, job.id), terminal, WAIT)).status).toBe('succeeded');
    const another = await createSpeech(standing, 'Still answering.');
    expect(another.status).not.toBe('failed');
    apis = [standing];
  }, scaled(90_000));

  it('drains a worker on SIGTERM: it exits 0 and the jobs it ran finish', async () => {
    const jobs = await Promise.all(Array.from({ length: 4 }, () => createSpeech(apis[0]!, LONG_TEXT)));
    const pid = await until(
      'a job running on a worker',
      async () => {
        for (const job of jobs) {
          const claimed = await claimedPid(job.id);
          if (claimed !== null) return claimed;
        }
        return null;
      },
      (p) => p !== null,
      WAIT,
    );
    const runner = workers.find((w) => w.pid === pid)!;
    runner.child.kill('SIGTERM');
    expect(await runner.exited).toEqual({ code: 0, signal: null });
    const finished = await Promise.all(jobs.map((job) => until(
      `job ${job.id}`,
      () => jobOn(apis[0]!, job.id),
      terminal,
      { ...WAIT, timeoutMs: scaled(90_000) },
    )));
    expect(finished.filter((job) => job.status !== 'succeeded').map((job) => `${job.status}: ${job.error_message}`)).toEqual([]);
    expect(runner.stderr()).toContain('SIGTERM: draining');
    workers = workers.filter((w) => w !== runner);
  }, scaled(120_000));
});
