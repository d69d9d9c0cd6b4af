/**
 * A cluster under the mixed load of issue 28's test, all real processes: one PostgreSQL database, one storage folder,
 * two API nodes and two workers with a 3-second lease. Three hundred jobs of every kind go through both API nodes at
 * once — transcriptions with segments (the tiny NeMo CTC model and Silero VAD, imported through an API node into the
 * shared storage), eSpeak speech, a batch of each, and the OpenAI-compatible routes — while a worker is SIGKILLed in
 * the middle of a long transcription, and a third API node is SIGKILLed while an upload's body arrives.
 *
 * Every accepted job succeeds exactly once (one attempt each); the killed transcription continues on the other
 * worker after its last committed segment and equals an uninterrupted run of the same recording, segment for segment;
 * the cut upload, sent again with its Idempotency-Key to the other API nodes, is one job; every job's charges equal the
 * catalogue's quote for what it delivered (one request fee per job or per batch, the per-minute charge for its
 * seconds), nothing is charged twice; and no upload is orphaned: every folder in the shared storage belongs to a job
 * but the cut one, which the abandoned-upload sweep deletes once it is old enough.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Agent, setGlobalDispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, Quote, SegmentList } from '../../../src-main/common/api-types.js';
import { JOB_ID_HEADER } from '../../../src-main/service/openai/openai-job.js';
import { ABANDONED_UPLOAD_MS, RECEIVING_MARKER, sweepAbandonedUploads } from '../../../src-main/service/uploads/abandoned-uploads.js';
import { startApiNode, startWorkerNode, stopNode, type NodeProcess } from '../../helpers/cluster.js';
import { Client, form, json } from '../../helpers/http-client.js';
import { makeLongRecording } from '../../helpers/long-recording.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js';
import { SHARED } from '../../helpers/system.js';
import { scaled } from '../../helpers/time-scale.js';
import { until } from '../../helpers/wait.js';

const KEY = 'vdk_cluster_mixed_load_administering_key_01';
// The OpenAI-compatible routes answer with the audio or the text, so they hold their request until the job ran: on a
// busy machine 300 jobs on two single-engine workers take longer than fetch's default 300 s wait for the answer's
// headers, which a client of a loaded service would raise as well (the OpenAI SDK waits 10 minutes).
setGlobalDispatcher(new Agent({ headersTimeout: 900_000, bodyTimeout: 900_000 }));
const PRICES = { 'tiny-ctc': { request_fee_usd: 0.05, per_minute_usd: 0.006 }, 'espeak-ng': { request_fee_usd: 0.05, per_minute_usd: 0.01 } };
const JFK = new Uint8Array(readFileSync(join(SHARED, 'audio/jfk.wav')));

let db: TestDatabase;
let sql: pg.Pool;
let dir: string;
let longRecording: Uint8Array<ArrayBuffer>;
let apis: NodeProcess[] = [];
/** The API node SIGKILLed while an upload's body arrives. */
let doomed: NodeProcess | undefined;
let workers: NodeProcess[] = [];
let nodeArgs: string[] = [];

const api = (i: number): Client => new Client(apis[i % apis.length]!.url, KEY);
const terminal = (job: Job): boolean => ['succeeded', 'failed', 'cancelled', 'expired'].includes(job.status);

/** This file's waits (helpers/wait.ts). */
const WAIT = { timeoutMs: scaled(240_000), everyMs: 200 };

/** Runs `tasks` with at most `width` at once (a client's connection pool, not a flood of sockets). */
async function inTurn<T>(tasks: (() => Promise<T>)[], width: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < tasks.length) {
        const i = next++;
        results[i] = await tasks[i]!();
      }
    }),
  );
  return results;
}

/**
 * An upload as a well-behaved client sends it: an account may have 4 uploads running on a node, and one refused with
 * 429 too_many_uploads is sent again a moment later.
 */
async function upload(url: string, body: () => FormData, headers: Record<string, string> = {}): Promise<Response> {
  for (;;) {
    const response = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, ...headers }, body: body() });
    if (response.status !== 429) return response;
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('too_many_uploads');
    await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
  }
}

const transcribe = (node: number, file: Uint8Array<ArrayBuffer>, name: string) => async (): Promise<string> => {
  const response = await upload(`${api(node).url}/v1/speech-to-text`, () => form([{ name: 'model', value: 'tiny-ctc' }, { name: 'file', file: { name, data: file } }]));
  return (await json<Job>(response, response.status === 200 ? 200 : 202)).id;
};

const speak = (node: number, text: string) => async (): Promise<string> => {
  const response = await api(node).postJson('/v1/text-to-speech', { model: 'espeak-ng', text });
  return (await json<Job>(response, response.status === 200 ? 200 : 202)).id;
};

async function jobOf(id: string): Promise<Job> {
  const row = (await sql.query<{ product: string }>('SELECT product FROM jobs WHERE id = $1', [id])).rows[0]!;
  return json<Job>(api(0).get(`/v1/${row.product}/${id}`));
}

async function segmentsOf(id: string): Promise<string[]> {
  const list = await json<SegmentList>(api(1).get(`/v1/speech-to-text/${id}/segments?limit=1000`));
  return list.data.map((s) => `${s.start.toFixed(2)}-${s.end.toFixed(2)} ${s.text}`);
}

beforeAll(async () => {
  db = await createTestDatabase('cluster_mixed');
  sql = new pg.Pool({ connectionString: db.url, max: 2 });
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-cluster-mixed-'));
  longRecording = new Uint8Array(readFileSync(makeLongRecording(dir)));
  const pricingFile = join(dir, 'pricing.json');
  writeFileSync(pricingFile, JSON.stringify({ models: PRICES }));
  const common = { databaseUrl: db.url, storageDir: join(dir, 'storage'), apiKey: KEY };
  nodeArgs = ['--lease-seconds', '3', '--pricing-file', pricingFile, '--shutdown-grace', '20'];
  apis = [await startApiNode({ ...common, args: [...nodeArgs, '--hold-seconds', '0'] })];
  // Each recognised segment takes 150 ms more on the workers, so that the long transcription is caught mid-way.
  const slow = { VOXDESK_TEST_SEGMENT_DELAY_MS: '150' };
  const [api2, ...rest] = await Promise.all([
    startApiNode({ ...common, args: [...nodeArgs, '--hold-seconds', '30'] }),
    startWorkerNode({ ...common, env: slow, args: [...nodeArgs, '--workers', '1'] }),
    startWorkerNode({ ...common, env: slow, args: [...nodeArgs, '--workers', '1'] }),
  ]);
  apis.push(api2!);
  workers = rest;
  doomed = await startApiNode({ ...common, args: [...nodeArgs, '--hold-seconds', '0'] });
  // Models imported through one API node land in the shared storage and the shared model rows: every node runs them.
  for (const body of [{ path: join(SHARED, 'models/tiny/tiny-nemo-ctc'), id: 'tiny-ctc', languages: ['en'] }, { path: join(SHARED, 'models/silero_vad_v5.onnx') }]) {
    const started = await json<{ id: string }>(api(1).postJson('/v1/local/models/import', body), 202);
    const done = await until(
      `the import of ${started.id}`,
      () => json<{ state: string }>(api(1).get(`/v1/local/models/${started.id}`)),
      (m) => m.state === 'installed' || m.state === 'failed',
      WAIT,
    );
    expect(done.state).toBe('installed');
    // The other API node learns of it from the shared rows.
    await until(
      `${started.id} on the other API node`,
      async () => (await api(0).get(`/v1/local/models/${started.id}`)).status,
      (status) => status === 200,
      { ...WAIT, timeoutMs: scaled(30_000) },
    );
  }
}, scaled(180_000));

afterAll(async () => {
  await Promise.all([...apis, ...workers, ...(doomed ? [doomed] : [])].map((node) => stopNode(node)));
  await sql?.end();
  await db?.drop();
  rmSync(dir, { recursive: true, force: true });
}, scaled(60_000));

describe('a cluster under a mixed load, a worker killed in the middle of a long transcription', () => {
  it('finishes 300 mixed jobs sent through both API nodes exactly once, resumes the killed transcription, and charges every job its quote', async () => {
    // The long transcription first, so that it is running when the rest arrive.
    const long = await transcribe(0, longRecording, 'long-recording.wav')();
    const running = await until(
      'the long transcription running with a few segments committed',
      async () =>
        (await sql.query<{ status: string; claimed_by: string | null; segments: string; error_message: string | null }>(
          'SELECT j.status, j.claimed_by, j.error_message, (SELECT COUNT(*) FROM job_segments s WHERE s.job_id = j.id) AS segments FROM jobs j WHERE j.id = $1',
          [long],
        )).rows[0]!,
      (row) => (row.status === 'running' && Number(row.segments) >= 3) || terminal(row as unknown as Job),
      WAIT,
    );
    expect(running.status, JSON.stringify(running)).toBe('running');
    const victimPid = Number(running.claimed_by!.split(':').at(-2));

    const tasks: (() => Promise<string>)[] = [];
    for (let i = 0; i < 120; i += 1) tasks.push(transcribe(i, JFK, `jfk-${i}.wav`));
    for (let i = 0; i < 110; i += 1) tasks.push(speak(i, `Mixed load sentence number ${i + 1}.`));
    const openAi: Promise<string[]> = inTurn(
      Array.from({ length: 20 }, (_, i) => async () => {
        const client = api(i);
        const response =
          i % 2 === 0
            ? await upload(`${client.url}/v1/audio/transcriptions`, () => form([{ name: 'model', value: 'tiny-ctc' }, { name: 'file', file: { name: `openai-${i}.wav`, data: JFK } }]))
            : await client.postJson('/v1/audio/speech', { model: 'espeak-ng', input: `OpenAI route sentence ${i}.`, voice: 'en', response_format: 'wav' });
        expect(response.status, await response.clone().text()).toBe(200);
        await response.arrayBuffer();
        return response.headers.get(JOB_ID_HEADER) ?? '';
      }),
      4,
    );
    const batchSpeech = api(1)
      .postJson('/v1/text-to-speech/batch', { model: 'espeak-ng', items: Array.from({ length: 25 }, (_, i) => ({ text: `Batch sentence ${i + 1}.`, name: `b${i}` })) })
      .then((response) => json<{ id: string }>(response, response.status === 200 ? 200 : 202));
    const batchAudio = upload(`${api(0).url}/v1/speech-to-text/batch`, () =>
      form([{ name: 'model', value: 'tiny-ctc' }, ...Array.from({ length: 25 }, (_, i) => ({ name: 'file', file: { name: `batch-${i}.wav`, data: JFK } }))]),
    ).then((response) => json<{ id: string }>(response, response.status === 200 ? 200 : 202));
    const singles = inTurn(tasks, 8);

    // An API node dies while an upload's body arrives; the client sends it again, with the same key, elsewhere.
    const cutKey = 'cluster-cut-upload-1';
    const uploadsRoot = join(dir, 'storage', 'uploads');
    const uploadFolders = (): string[] =>
      existsSync(uploadsRoot) ? readdirSync(uploadsRoot).flatMap((account) => readdirSync(join(uploadsRoot, account)).map((u) => join(uploadsRoot, account, u))) : [];
    const doomedUrl = new URL(doomed!.url);
    const socket = connect(Number(doomedUrl.port), '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(
      `POST /v1/speech-to-text HTTP/1.1\r\nHost: ${doomedUrl.host}\r\nAuthorization: Bearer ${KEY}\r\nIdempotency-Key: ${cutKey}\r\n` +
        'Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 10000000\r\n\r\n' +
        '--b\r\nContent-Disposition: form-data; name="model"\r\n\r\ntiny-ctc\r\n--b\r\nContent-Disposition: form-data; name="file"; filename="cut.wav"\r\n\r\n',
    );
    socket.write(Buffer.from(JFK.subarray(0, 100_000)));
    const cutFolder = await until(
      'the cut upload in the shared storage',
      async () => uploadFolders().find((f) => readdirSync(f).some((n) => n.endsWith('cut.wav'))),
      (f) => f !== undefined,
      { ...WAIT, timeoutMs: scaled(60_000) },
    );
    doomed!.child.kill('SIGKILL');
    await doomed!.exited;
    doomed = undefined;
    socket.destroy();
    const resend = (node: number) => async (): Promise<string> => {
      const response = await upload(`${api(node).url}/v1/speech-to-text`, () => form([{ name: 'model', value: 'tiny-ctc' }, { name: 'file', file: { name: 'cut.wav', data: JFK } }]), { 'Idempotency-Key': cutKey });
      return (await json<Job>(response, response.status === 200 ? 200 : 202)).id;
    };
    const resent = await resend(1)();
    expect(await resend(0)()).toBe(resent); // the same key on the other node: the same job

    // The worker running the long transcription dies while the load is on.
    const victim = workers.find((w) => w.pid === victimPid)!;
    victim.child.kill('SIGKILL');
    await victim.exited;
    workers = [...workers.filter((w) => w !== victim), await startWorkerNode({ databaseUrl: db.url, storageDir: join(dir, 'storage'), apiKey: KEY, args: [...nodeArgs, '--workers', '1'] })];

    const [singleIds, openAiIds, speechBatch, audioBatch] = await Promise.all([singles, openAi, batchSpeech, batchAudio]);
    const batchIds = (await sql.query<{ id: string }>('SELECT id FROM jobs WHERE batch_id = ANY($1)', [[speechBatch.id, audioBatch.id]])).rows.map((r) => r.id);
    expect(batchIds).toHaveLength(50);
    expect(openAiIds.filter((id) => id !== '')).toHaveLength(20);
    const all = [long, ...singleIds, ...openAiIds, ...batchIds, resent];
    expect(all).toHaveLength(302); // the long transcription, 300 more, and the upload cut by the API node's death
    expect(new Set(all).size).toBe(all.length);

    const finished = await until(
      'every job to finish',
      async () => (await sql.query<{ id: string; status: string; attempts: number; error_message: string | null }>('SELECT id, status, attempts, error_message FROM jobs WHERE id = ANY($1)', [all])).rows,
      (rows) => rows.length === all.length && rows.every((r) => ['succeeded', 'failed', 'cancelled', 'expired'].includes(r.status)),
      WAIT,
    );
    expect(finished.filter((r) => r.status !== 'succeeded').map((r) => `${r.id} ${r.status}: ${r.error_message}`)).toEqual([]);
    expect(finished.filter((r) => Number(r.attempts) !== 1).map((r) => r.id)).toEqual([]);

    // The killed transcription equals an uninterrupted run of the same recording.
    const again = await transcribe(1, longRecording, 'long-recording-again.wav')();
    expect((await until('the uninterrupted run', () => jobOf(again), terminal, WAIT)).status).toBe('succeeded');
    expect(await segmentsOf(long)).toEqual(await segmentsOf(again));

    // Charges: each job or batch its one request fee, each job the quote of the seconds it was charged for.
    const ledger = (await sql.query<{ job_id: string | null; batch_id: string | null; model_id: string; kind: string; seconds: number; amount_usd_micro: string }>(
      'SELECT job_id, batch_id, model_id, kind, seconds, amount_usd_micro FROM ledger WHERE job_id = ANY($1) OR batch_id = ANY($2)',
      [[...all, again], [speechBatch.id, audioBatch.id]],
    )).rows;
    const key = (r: { job_id: string | null; batch_id: string | null; kind: string }): string => `${r.kind}:${r.kind === 'request_fee' && r.batch_id ? r.batch_id : r.job_id}`;
    expect(ledger.length).toBe(new Set(ledger.map(key)).size); // nothing charged twice
    const fees = ledger.filter((r) => r.kind === 'request_fee');
    expect(fees).toHaveLength(all.length - 50 + 1 + 2); // one per single job (the rerun included), one per batch
    const usage = ledger.filter((r) => r.kind === 'usage');
    expect(usage).toHaveLength(all.length + 1);
    // A single job's usage is its quote; a batch's items share the batch's total rounded once (common/pricing.ts), so
    // their rows add up to the quote for all their seconds.
    const quoteOf = async (modelId: string, seconds: number): Promise<Quote> => json<Quote>(api(0).get(`/v1/models/${modelId}/quote?seconds=${seconds}`));
    for (const row of usage.filter((r) => r.batch_id === null)) {
      expect(row.seconds).toBeGreaterThan(0);
      expect(Number(row.amount_usd_micro), `${row.job_id} ${row.seconds} s`).toBe(Math.round((await quoteOf(row.model_id, row.seconds)).usage_usd * 1e6));
    }
    for (const batchId of [speechBatch.id, audioBatch.id]) {
      const rows = usage.filter((r) => r.batch_id === batchId);
      expect(rows).toHaveLength(25);
      const seconds = rows.reduce((ms, r) => ms + Math.round(r.seconds * 1000), 0) / 1000;
      const charged = rows.reduce((sum, r) => sum + Number(r.amount_usd_micro), 0);
      expect(charged, `batch ${batchId}`).toBe(Math.round((await quoteOf(rows[0]!.model_id, seconds)).usage_usd * 1e6));
    }
    for (const fee of fees) expect(Number(fee.amount_usd_micro)).toBe(50_000);

    // No upload is orphaned: every folder belongs to a job but the cut one, still marked, which the sweep deletes
    // once nothing was written to it for the abandonment age.
    const inputs = (await sql.query<{ input_json: string }>('SELECT input_json FROM jobs')).rows.map((r) => r.input_json).join('\n');
    const unowned = uploadFolders().filter((folder) => !inputs.includes(folder));
    expect(unowned).toEqual([cutFolder]);
    expect(existsSync(join(cutFolder!, RECEIVING_MARKER))).toBe(true);
    expect(await sweepAbandonedUploads(uploadsRoot, { now: Date.now() + ABANDONED_UPLOAD_MS + 60_000 })).toBe(1);
    expect(existsSync(cutFolder!)).toBe(false);
  }, scaled(900_000));
});
