/**
 * A cluster on object storage (issue 28, item 3): one PostgreSQL database, an S3-compatible server on loopback
 * (s3rver, test/helpers/s3-server.ts: the one fake, where a remote S3 service would be), two API nodes and one worker,
 * each with its own data dir and no folder shared between them — `--storage s3://voxdesk-test/cluster` with
 * `--storage-endpoint`, credentials from the AWS variables.
 *
 * - A model imported through one API node is put in the bucket once and runs on the worker, which fetched it there.
 * - A recording uploaded to one API node is put in the bucket, transcribed on the worker, and played back through the
 *   other API node; a speech job's download link is served by the API node that did not make it.
 * - Deleting a job (history retention) deletes its objects.
 * - A bad `s3://` value, a wrong endpoint, wrong credentials and a missing bucket stop a node's start with what to fix.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../../src-main/common/api-types.js';
import { startApiNode, startWorkerNode, stopNode, type ClusterNodeOptions, type NodeProcess } from '../../helpers/cluster.js';
import { Client, json } from '../../helpers/http-client.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js';
import { S3_CREDENTIALS, startS3Server, type TestS3 } from '../../helpers/s3-server.js';
import { SHARED } from '../../helpers/system.js';
import { scaled } from '../../helpers/time-scale.js';

const KEY = 'vdk_cluster_s3_test_administering_key_01';
const BUCKET = 'voxdesk-test';
const STORAGE = `s3://${BUCKET}/cluster`;
const JFK = new Uint8Array(readFileSync(join(SHARED, 'audio/jfk.wav')));

let db: TestDatabase;
let sql: pg.Pool;
let s3: TestS3;
let apis: NodeProcess[] = [];
let worker: NodeProcess | undefined;

const client = (node: NodeProcess): Client => new Client(node.url, KEY);

function nodeOptions(extra: Partial<ClusterNodeOptions> = {}): ClusterNodeOptions {
  return {
    databaseUrl: db.url,
    storageDir: STORAGE,
    apiKey: KEY,
    ...extra,
    args: ['--storage-endpoint', s3.endpoint, '--lease-seconds', '3', ...(extra.args ?? [])],
    env: { ...S3_CREDENTIALS, ...extra.env },
  };
}

/** How long a wait may take before the test fails (a safety net for a hang, stretched on a busy machine). */
const WAIT = { timeout: scaled(60_000), interval: 100 };

/** A created job (201 or 202: the API nodes hold no POST here); a failed connection says what the node logged. */
async function accepted(node: NodeProcess, response: Promise<Response>): Promise<Job> {
  const r = await response.catch((error: Error) => {
    throw new Error(`${error.message} (${String(error.cause)}); the node ${node.child.exitCode === null ? 'runs' : `exited ${node.child.exitCode}`}, its stderr:\n${node.stderr()}`, { cause: error });
  });
  const text = await r.text();
  expect(r.status, text).toBeLessThan(300);
  return JSON.parse(text) as Job;
}

const TERMINAL = ['succeeded', 'failed', 'cancelled', 'expired'];

async function finished(node: NodeProcess, product: string, id: string): Promise<Job> {
  let job: Job | undefined;
  await expect.poll(async () => (job = await json<Job>(client(node).get(`/v1/${product}/${id}`))).status, WAIT).toSatisfy((status: string) => TERMINAL.includes(status));
  expect(job!.status, `${job!.error_code}: ${job!.error_message}`).toBe('succeeded');
  return job!;
}

beforeAll(async () => {
  db = await createTestDatabase('clusters3');
  sql = new pg.Pool({ connectionString: db.url, max: 2 });
  s3 = await startS3Server(BUCKET);
  // The first node creates the schema; the others start together.
  apis = [await startApiNode(nodeOptions({ args: ['--hold-seconds', '0'] }))];
  const [api2, engine] = await Promise.all([startApiNode(nodeOptions({ args: ['--hold-seconds', '0'] })), startWorkerNode(nodeOptions({ args: ['--workers', '1'] }))]);
  apis.push(api2!);
  worker = engine;
}, scaled(180_000));

afterAll(async () => {
  await Promise.all([...apis, worker].map((node) => stopNode(node)));
  await sql?.end();
  await db?.drop();
  await s3?.close();
}, scaled(60_000));

describe('a cluster on S3-compatible object storage, no folder shared between its nodes', () => {
  it('keeps an imported model in the bucket and runs an upload to one API node on the worker, served back by the other', async () => {
    // Imported through one API node: the packages go to the bucket once; the worker fetches them on its first use.
    for (const body of [{ path: join(SHARED, 'models/tiny/tiny-nemo-ctc'), id: 'tiny-ctc', languages: ['en'] }, { path: join(SHARED, 'models/silero_vad_v5.onnx') }]) {
      const started = await json<{ id: string }>(client(apis[0]!).postJson('/v1/local/models/import', body), 202);
      const state = () => json<{ state: string }>(client(apis[0]!).get(`/v1/local/models/${started.id}`)).then((m) => m.state);
      await expect.poll(state, WAIT).toMatch(/^(installed|failed)$/);
      expect(await state()).toBe('installed');
    }
    const models = await s3.keys('cluster/models/');
    expect(models.some((key) => key.startsWith('cluster/models/tiny-ctc/'))).toBe(true);
    expect(models.some((key) => key.includes('.staging'))).toBe(false);

    const created = await accepted(apis[0]!, client(apis[0]!).postForm('/v1/speech-to-text', [{ name: 'model', value: 'tiny-ctc' }, { name: 'file', file: { name: 'jfk.wav', data: JFK } }]));
    await finished(apis[0]!, 'speech-to-text', created.id);
    // The worker ran it (the API nodes run no jobs) on the recording it fetched from the bucket.
    const row = (await sql.query<{ input_json: string; claimed_by: string | null }>('SELECT input_json, claimed_by FROM jobs WHERE id = $1', [created.id])).rows[0]!;
    const input = JSON.parse(row.input_json) as { filePath: string };
    expect(input.filePath).toMatch(/^uploads\/acc_[^/]+\/up_[^/]+\/[^/]*jfk\.wav$/); // a key, the same on every node
    expect(await s3.keys(`cluster/${input.filePath}`)).toEqual([`cluster/${input.filePath}`]);
    // The other API node plays the recording back (fetched from the bucket: it never saw the upload).
    const audio = await client(apis[1]!).get(`/v1/speech-to-text/${created.id}/audio`);
    expect(audio.status).toBe(200);
    expect(new Uint8Array(await audio.arrayBuffer())).toEqual(JFK);

    // A speech job's file: made on the worker, put in the bucket, its link served by an API node that never had it.
    const speech = await accepted(apis[0]!, client(apis[0]!).postJson('/v1/text-to-speech', { model: 'espeak-ng', text: 'Stored in a bucket, served by any node.' }));
    const done = await finished(apis[1]!, 'text-to-speech', speech.id);
    const link = done.result!.artifacts![0]!.url;
    expect(link.startsWith(apis[1]!.url)).toBe(true);
    const download = await fetch(link);
    expect(download.status).toBe(200);
    const bytes = new Uint8Array(await download.arrayBuffer());
    expect(bytes.byteLength).toBeGreaterThan(1000);
    const artifactKeys = await s3.keys(`cluster/artifacts/${speech.id}/`);
    expect(artifactKeys).toHaveLength(1);
    // A range of it, as a browser seeking in audio asks.
    const range = await fetch(link, { headers: { range: 'bytes=0-99' } });
    expect(range.status).toBe(206);
    expect(new Uint8Array(await range.arrayBuffer())).toEqual(bytes.slice(0, 100));

    // Deleting the jobs (history retention, here told they finished long ago) deletes their objects.
    await json(fetch(`${apis[0]!.url}/v1/settings/retention`, { method: 'PUT', headers: client(apis[0]!).headers({ 'content-type': 'application/json' }), body: JSON.stringify({ job_history_days: 1 }) }));
    await sql.query(`UPDATE jobs SET finished_at = '2000-01-01T00:00:00.000Z' WHERE id = ANY($1)`, [[created.id, speech.id]]);
    await expect.poll(async () => [...(await s3.keys(`cluster/${input.filePath}`)), ...(await s3.keys(`cluster/artifacts/${speech.id}/`))], WAIT).toEqual([]);
    // The rows go right after their files (the sweep deletes the files first, so none is left without its row).
    await expect.poll(async () => (await sql.query('SELECT id FROM jobs WHERE id = ANY($1)', [[created.id, speech.id]])).rows, WAIT).toEqual([]);
    expect((await fetch(link)).status).toBe(404);
    // The model packages stay.
    expect((await s3.keys('cluster/models/tiny-ctc/')).length).toBeGreaterThan(0);
  }, scaled(180_000));

  it('refuses to start on a bad s3:// value, a wrong endpoint, wrong credentials or a missing bucket, saying what to fix', async () => {
    /** The start's error (its stderr); a node that started after all is stopped, and the test fails. */
    const refused = async (starting: Promise<NodeProcess>): Promise<string> => {
      const outcome = await starting.then(
        async (node) => {
          await stopNode(node);
          return 'the node started';
        },
        (error: Error) => error.message,
      );
      expect(outcome).not.toBe('the node started');
      return outcome;
    };
    expect(await refused(startApiNode(nodeOptions({ storageDir: 's3://Not_A_Bucket/x' })))).toMatch(/"Not_A_Bucket" is not a bucket name/);
    expect(await refused(startApiNode(nodeOptions({ storageDir: 'gs://bucket/x' })))).toMatch(/gs:\/\/ is not supported/);
    // Nothing listens on port 9 of loopback (discard): the connection is refused at once.
    expect(await refused(startWorkerNode({ ...nodeOptions(), args: ['--storage-endpoint', 'http://127.0.0.1:9', '--workers', '1'] }))).toMatch(/could not be reached.*--storage-endpoint/);
    expect(await refused(startApiNode(nodeOptions({ env: { AWS_ACCESS_KEY_ID: 'NOT-THE-KEY' } })))).toMatch(/refused these credentials \(HTTP 403\)/);
    expect(await refused(startApiNode(nodeOptions({ storageDir: 's3://no-such-bucket/x' })))).toMatch(/the bucket no-such-bucket does not exist/);
  }, scaled(120_000));
});
