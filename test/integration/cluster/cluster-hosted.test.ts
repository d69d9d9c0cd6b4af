/**
 * Hosted forwarding in a cluster (issue 28, item 4): forwarding is the cluster's, not a node's. The hosted side is a
 * real service on loopback (test engines and the tiny streaming recognizer); the cluster is real processes — one
 * PostgreSQL database, two API nodes and two workers, every node given the same VOXDESK_SECRETS_KEY — and a third API
 * node without it.
 *
 * - Forwarding configured through API node 1 is in force on every node: a hosted transcription sent to API node 2 is
 *   claimed by a worker, forwarded once and readable through node 1; a hosted batch likewise (one hosted batch).
 * - Hosted live dictation on API node 2: relayed, and the local job that follows the hosted one succeeds on a worker.
 * - A node without the sealing key says so at start and refuses to store a hosted key (409 with what to set).
 * - A worker SIGKILLed while it follows a hosted job: another worker follows the same hosted job to its end — one
 *   hosted submission, one charge on each side.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Batch, Job } from '../../../src-main/common/api-types.js';
import { startApiNode, startWorkerNode, stopNode, type NodeProcess } from '../../helpers/cluster.js';
import { JFK_WAV, pcmOf, sendPcm, tinyLiveModelSource, TINY_STREAMING_JFK_TEXT } from '../../helpers/dictation-fixtures.js';
import { LiveClient } from '../../helpers/live-harness.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js';
import { startTestService, testModelSource, type TestService } from '../../helpers/service.js';
import { scaled } from '../../helpers/time-scale.js';
import { api, audioForm, listJobs, localLedger, waitFor } from '../../helpers/two-instances.js';

const KEY = 'vdk_cluster_hosted_administering_key_01';
/** The cluster's sealing key (32 bytes, base64), the same on every node. */
const SECRETS_KEY = Buffer.alloc(32, 7).toString('base64');
const LEASE = ['--lease-seconds', '3'];

let db: TestDatabase;
let sql: pg.Pool;
let storage: string;
let hosted: TestService;
let apis: NodeProcess[] = [];
let workers: NodeProcess[] = [];
let keyless: NodeProcess | undefined;

const common = (): { databaseUrl: string; storageDir: string; apiKey: string; env: NodeJS.ProcessEnv } => ({
  databaseUrl: db.url,
  storageDir: storage,
  apiKey: KEY,
  env: { VOXDESK_SECRETS_KEY: SECRETS_KEY },
});

const terminal = (job: { status: string }): boolean => ['succeeded', 'failed', 'cancelled', 'expired'].includes(job.status);

async function jobOn(node: NodeProcess, id: string): Promise<Job> {
  return (await api<Job>(node.url, KEY, 'GET', `/v1/speech-to-text/${id}`)).body;
}

async function untilTerminal(node: NodeProcess, id: string, ms = scaled(90_000)): Promise<Job> {
  return waitFor(`job ${id} to end`, async () => {
    const job = await jobOn(node, id);
    return terminal(job) ? job : undefined;
  }, ms);
}

async function remoteRow(jobId: string): Promise<{ remote_job_id: string | null; submissions: number } | undefined> {
  const row = (await sql.query<{ remote_job_id: string | null; submissions: string }>('SELECT remote_job_id, submissions FROM remote_jobs WHERE job_id = $1', [jobId])).rows[0];
  return row && { remote_job_id: row.remote_job_id, submissions: Number(row.submissions) };
}

/** How many jobs `node` claimed (its /metrics, with the administering key). */
async function claims(node: NodeProcess): Promise<number> {
  const text = await (await fetch(`${node.url}/metrics`, { headers: { authorization: `Bearer ${KEY}` } })).text();
  const match = /^voxdesk_jobs_claimed_total (\S+)$/m.exec(text);
  if (!match) throw new Error(`no voxdesk_jobs_claimed_total in:\n${text}`);
  return Number(match[1]);
}

/** Waits until `node` lists `model` (it learned the forwarding settings and has the hosted catalogue). */
async function listed(node: NodeProcess, model: string): Promise<void> {
  await waitFor(`${model} on ${node.url}`, async () => (await fetch(`${node.url}/v1/models/${model}`)).status === 200, scaled(30_000));
}

beforeAll(async () => {
  hosted = await startTestService({ extraModelSources: [testModelSource, tinyLiveModelSource], holdSeconds: 1 });
  db = await createTestDatabase('cluster_hosted');
  sql = new pg.Pool({ connectionString: db.url, max: 2 });
  storage = mkdtempSync(join(tmpdir(), 'voxdesk-cluster-hosted-storage-'));
  apis = [await startApiNode({ ...common(), args: [...LEASE, '--hold-seconds', '0'] })];
  const [api2, ...rest] = await Promise.all([
    startApiNode({ ...common(), args: [...LEASE, '--hold-seconds', '0'] }),
    startWorkerNode({ ...common(), args: [...LEASE, '--workers', '1'] }),
    startWorkerNode({ ...common(), args: [...LEASE, '--workers', '1'] }),
  ]);
  apis.push(api2!);
  workers = rest;
  // Forwarding configured through API node 1 only.
  const put = await api<{ url: string; key_set: boolean }>(apis[0]!.url, KEY, 'PUT', '/v1/settings/remote', { url: hosted.url, key: hosted.key });
  expect(put).toMatchObject({ status: 200, body: { url: hosted.url, key_set: true } });
}, scaled(180_000));

afterAll(async () => {
  await Promise.all([...apis, ...workers, keyless].map((node) => stopNode(node)));
  await hosted?.stop();
  await sql?.end();
  await db?.drop();
  if (storage) rmSync(storage, { recursive: true, force: true });
}, scaled(60_000));

describe('hosted forwarding on a cluster', () => {
  it('is in force on every node: a hosted transcription sent to API node 2 runs on a worker and reads the same on node 1', async () => {
    await listed(apis[1]!, 'remote:test-asr');
    const settings = await api<{ url: string; key_set: boolean; last_error: string | null }>(apis[1]!.url, KEY, 'GET', '/v1/settings/remote');
    expect(settings.body).toMatchObject({ url: hosted.url, key_set: true, last_error: null });
    const sent = await api<Job>(apis[1]!.url, KEY, 'POST', '/v1/speech-to-text', audioForm('remote:test-asr', [JFK_WAV], { name: 'hosted one' }));
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const done = await untilTerminal(apis[0]!, sent.body.id);
    expect(done).toMatchObject({ status: 'succeeded', name: 'hosted one', model_id: 'remote:test-asr' });
    // Forwarded once, by a worker (the API nodes run no jobs), and the hosted job's result mirrored.
    const row = await remoteRow(done.id);
    expect(row).toMatchObject({ submissions: 1 });
    const hostedJob = (await listJobs(hosted.url, hosted.key)).find((j) => j.id === row!.remote_job_id)!;
    expect(hostedJob).toMatchObject({ status: 'succeeded' });
    expect(done.result!.text).toBe(hostedJob.result!.text);
    for (const node of apis) expect(await claims(node)).toBe(0);
    // Charged once here, at the hosted price.
    const fees = (await sql.query<{ n: string }>("SELECT COUNT(*) AS n FROM ledger WHERE job_id = $1 AND kind = 'request_fee'", [done.id])).rows[0]!;
    expect(Number(fees.n)).toBe(1);
  }, scaled(120_000));

  it('forwards a batch sent to API node 2 as one hosted batch, its items readable through node 1', async () => {
    const sent = await api<Batch>(apis[1]!.url, KEY, 'POST', '/v1/speech-to-text/batch', audioForm('remote:test-asr', [JFK_WAV, JFK_WAV], {}));
    expect(sent.status, JSON.stringify(sent.body)).toBeLessThan(300);
    const done = await waitFor('the batch to complete', async () => {
      const batch = (await api<Batch>(apis[0]!.url, KEY, 'GET', `/v1/speech-to-text/batch/${sent.body.id}`)).body;
      return batch.status === 'complete' ? batch : undefined;
    }, scaled(90_000)).catch(async (error: Error) => {
      const rows = await sql.query('SELECT * FROM remote_batches WHERE batch_id = $1', [sent.body.id]);
      const jobs = await sql.query('SELECT id, status, error_code, error_message, claimed_by FROM jobs WHERE batch_id = $1', [sent.body.id]);
      throw new Error(`${error.message}\nremote_batches: ${JSON.stringify(rows.rows)}\njobs: ${JSON.stringify(jobs.rows)}\nworkers said:\n${workers.map((w) => w.stderr()).join('\n')}`);
    });
    expect(done).toMatchObject({ succeeded: 2, failed: 0 });
    const row = (await sql.query<{ remote_batch_id: string }>('SELECT remote_batch_id FROM remote_batches WHERE batch_id = $1', [sent.body.id])).rows[0]!;
    expect(row.remote_batch_id).toBeTruthy();
    const hostedBatch = (await api<Batch>(hosted.url, hosted.key, 'GET', `/v1/speech-to-text/batch/${row.remote_batch_id}`)).body;
    expect(hostedBatch).toMatchObject({ status: 'complete', succeeded: 2 });
    const hostedFees = localLedger(hosted.service.db).filter((e) => e.batch_id === row.remote_batch_id && e.kind === 'request_fee');
    expect(hostedFees).toHaveLength(1);
  }, scaled(120_000));

  it('relays live dictation on a hosted model through API node 2; the local job that follows it succeeds on a worker', async () => {
    await listed(apis[1]!, 'remote:tiny-streaming');
    const c = await LiveClient.open(`${apis[1]!.url.replace('http', 'ws')}/v1/speech-to-text/realtime?model=remote:tiny-streaming`, { authorization: `Bearer ${KEY}` });
    await c.waitFor('session.created');
    await sendPcm((frame) => c.ws.send(frame), pcmOf(JFK_WAV).pcm, 16000, { frameSeconds: 0.1, speed: 4 });
    c.send({ type: 'input_audio.end' });
    const done = await c.waitFor('session.done', scaled(60_000)).catch((error: Error) => {
      throw new Error(`${error.message}\nAPI node 2 said:\n${apis[1]!.stderr()}`);
    });
    expect(c.json().filter((m) => m.type === 'transcript.final').map((f) => f.text).join(' ')).toBe(TINY_STREAMING_JFK_TEXT);
    const job = await untilTerminal(apis[0]!, done.job_id as string);
    expect(job).toMatchObject({ status: 'succeeded', model_id: 'remote:tiny-streaming' });
    expect(job.result!.text).toBe(TINY_STREAMING_JFK_TEXT);
    expect(await remoteRow(job.id)).toMatchObject({ submissions: 0 }); // followed, never posted
  }, scaled(120_000));

  it('a node without the sealing key says so at start and refuses to store a hosted key, saying what to set', async () => {
    keyless = await startApiNode({ ...common(), env: {}, args: LEASE });
    await waitFor('the start-up warning', () => /VOXDESK_SECRETS_KEY is not set on this node/.test(keyless!.stderr()));
    const view = await api<{ key_set: boolean; last_error: string | null }>(keyless.url, KEY, 'GET', '/v1/settings/remote');
    expect(view.body).toMatchObject({ key_set: false, last_error: expect.stringContaining('VOXDESK_SECRETS_KEY') });
    const refused = await api<{ error: { code: string; message: string } }>(keyless.url, KEY, 'PUT', '/v1/settings/remote', { url: hosted.url, key: hosted.key });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'conflict', message: expect.stringContaining('VOXDESK_SECRETS_KEY') });
    // The key the other nodes sealed is untouched: they still forward.
    const still = await api<{ key_set: boolean }>(apis[0]!.url, KEY, 'GET', '/v1/settings/remote');
    expect(still.body.key_set).toBe(true);
    await stopNode(keyless);
    keyless = undefined;
  }, scaled(90_000));

  it('a worker killed while it follows a hosted job: another follows the same hosted job to its end, nothing posted or charged twice', async () => {
    const hostedBefore = (await listJobs(hosted.url, hosted.key)).length;
    const form = audioForm('remote:test-asr', [JFK_WAV], { params: JSON.stringify({ behaviour: 'sleep', ms: 8000 }) });
    const sent = await api<Job>(apis[1]!.url, KEY, 'POST', '/v1/speech-to-text', form);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const id = sent.body.id;
    // Caught following: the hosted job is known and the local one runs on a worker.
    const pid = await waitFor('a worker following the hosted job', async () => {
      const row = await remoteRow(id);
      const job = (await sql.query<{ claimed_by: string | null; status: string }>('SELECT claimed_by, status FROM jobs WHERE id = $1', [id])).rows[0];
      return row?.remote_job_id && job?.status === 'running' && job.claimed_by ? Number(job.claimed_by.split(':').at(-2)) : undefined;
    });
    const victim = workers.find((w) => w.pid === pid)!;
    const survivor = workers.find((w) => w.pid !== pid)!;
    victim.child.kill('SIGKILL');
    await victim.exited;
    const done = await untilTerminal(apis[0]!, id, scaled(120_000));
    expect(done).toMatchObject({ status: 'succeeded' });
    expect(await remoteRow(id)).toMatchObject({ submissions: 1 });
    expect(await listJobs(hosted.url, hosted.key)).toHaveLength(hostedBefore + 1);
    const fees = (await sql.query<{ n: string }>("SELECT COUNT(*) AS n FROM ledger WHERE job_id = $1 AND kind = 'request_fee'", [id])).rows[0]!;
    expect(Number(fees.n)).toBe(1);
    const hostedId = (await remoteRow(id))!.remote_job_id!;
    expect(localLedger(hosted.service.db).filter((e) => e.job_id === hostedId && e.kind === 'request_fee')).toHaveLength(1);
    workers = [survivor];
  }, scaled(180_000));
});
