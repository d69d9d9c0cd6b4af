/**
 * The remote runner's failure handling, against a scripted hosted side (node:http on loopback — the network is
 * the boundary) and a real SQLite file: 500s retried then remote_failed, 502/refused → waiting_for_network and
 * readiness holding jobs back until the probe gets an answer, a vanished hosted job, a rejection passing its code.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobError } from '../../../src-main/common/errors.js';
import type { ModelDefinition } from '../../../src-main/engines/model-definition.js';
import { createRemoteProvider, type RemoteProvider } from '../../../src-main/engines/remote/remote-provider.js';
import type { RunnerContext, RunnerTask } from '../../../src-main/jobs/job-runner.js';
import { openDatabase, type Db } from '../../../src-main/store/database.js';
import { createRepositories } from '../../../src-main/store/repositories.js';
import { waitFor } from './two-instances.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
let handler: Handler;
const calls: string[] = [];
let lastBody = '';
let server: Server;
let base: string;
let dir: string;
let db: Db;
let remote: RemoteProvider;

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const CATALOGUE = { object: 'list', data: [{ id: 'tts', name: 'TTS', capability: 'tts', status: 'available', provider: 'local' }] };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-remote-runner-'));
  server = createServer((req, res) => {
    calls.push(`${req.method} ${req.url}`);
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.method === 'POST') lastBody = body;
      if (req.url!.startsWith('/v1/models')) send(res, 200, CATALOGUE);
      else handler(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  db = openDatabase(join(dir, 'voxdesk.db'));
  db.prepare("INSERT INTO accounts (id, name, created_at) VALUES ('acc_1', 'local', '2026-01-01T00:00:00.000Z')").run();
  remote = createRemoteProvider({
    repos: createRepositories(db),
    env: {},
    log: () => {},
    initial: { url: base, key: 'vdk_hosted' },
    options: { offlineInitialMs: 50, offlineMaxMs: 200, serverErrorRetries: 2, pollInitialMs: 20, pollMaxMs: 50 },
  });
  await remote.source.refresh();
});

afterAll(async () => {
  remote.stop();
  db.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

let seq = 0;
function task(): { task: RunnerTask; ctx: RunnerContext } {
  const jobId = `job_test_${++seq}`;
  db.prepare(
    `INSERT INTO jobs (id, account_id, product, model_id, name, status, params_json, input_json, created_at, updated_at)
     VALUES (?, 'acc_1', 'text-to-speech', 'remote:tts', 'label', 'running', '{}', '{"text":"hi"}', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
  ).run(jobId);
  const definition = remote.source.list()[0] as ModelDefinition;
  return {
    task: {
      jobId,
      product: 'text-to-speech',
      modelId: 'remote:tts',
      engineConfig: definition.engineConfig,
      params: {},
      input: { text: 'hi' },
      workDir: join(dir, jobId),
      accountId: 'acc_1',
      definition,
      attempt: 1,
    },
    ctx: { signal: new AbortController().signal, progress: () => {}, measured: () => {}, log: () => {} },
  };
}

async function runError(t: { task: RunnerTask; ctx: RunnerContext }): Promise<JobError> {
  const error = await remote.jobRunner.run(t.task, t.ctx).then(
    () => new Error('expected a failure'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(JobError);
  return error as JobError;
}

describe('remote runner', () => {
  it('sends the job label and follows a queued hosted job to success by polling', async () => {
    let polls = 0;
    handler = (req, res) => {
      if (req.method === 'POST') return send(res, 200, { id: 'h1', status: 'queued', duration_seconds: null });
      polls++;
      send(res, 200, polls < 3 ? { id: 'h1', status: 'running', progress: 0.5 } : { id: 'h1', status: 'succeeded', duration_seconds: '1.500', result: { text: 'ok' } });
    };
    const t = task();
    const progress: number[] = [];
    t.ctx.progress = (p) => progress.push(p);
    const output = await remote.jobRunner.run(t.task, t.ctx);
    expect(output).toEqual({ result: { text: 'ok' }, artifacts: [], durationSeconds: 1.5 });
    expect(JSON.parse(lastBody)).toEqual({ model: 'tts', text: 'hi', params: {}, name: 'label' });
    expect(progress).toContain(0.5);
    expect(remote.jobsRepo.get(t.task.jobId)).toMatchObject({ remote_job_id: 'h1', remote_status: 'succeeded', submissions: 1 });
    expect(calls.filter((c) => c === 'GET /v1/text-to-speech/h1')).toHaveLength(3);
  });

  it('retries a hosted 500 and then fails remote_failed', async () => {
    handler = (_req, res) => send(res, 500, { error: { code: 'internal_error', message: 'boom' } });
    const t = task();
    const before = calls.length;
    const error = await runError(t);
    expect(error.code).toBe('remote_failed');
    expect(error.message).toMatch(/boom/);
    expect(calls.slice(before).filter((c) => c.startsWith('POST'))).toHaveLength(3); // first try + 2 retries
  });

  it('passes a hosted rejection code through', async () => {
    handler = (_req, res) => send(res, 422, { error: { code: 'model_unavailable', message: 'gone for maintenance' } });
    const error = await runError(task());
    expect(error).toMatchObject({ code: 'model_unavailable', message: 'hosted service: gone for maintenance' });
  });

  it('fails remote_failed when a followed hosted job vanishes', async () => {
    handler = (req, res) =>
      req.method === 'POST' ? send(res, 200, { id: 'h404', status: 'running' }) : send(res, 404, { error: { code: 'not_found', message: 'no such job' } });
    const error = await runError(task());
    expect(error.code).toBe('remote_failed');
  });

  it('ends with waiting_for_network on a 502, holds jobs back, and lets them go once the hosted side answers', async () => {
    let down = true;
    handler = (_req, res) => send(res, 502, { error: { code: 'bad_gateway', message: 'proxy' } });
    server.removeAllListeners('request');
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      calls.push(`${req.method} ${req.url}`);
      req.resume();
      req.on('end', () => {
        if (down) return send(res, 503, { error: { code: 'unavailable', message: 'restarting' } });
        if (req.url!.startsWith('/v1/models')) return send(res, 200, CATALOGUE);
        send(res, 200, { id: 'h2', status: 'succeeded', duration_seconds: '2.000', result: { text: 'back' } });
      });
    });
    const t = task();
    const error = await runError(t);
    expect(error.code).toBe('waiting_for_network');
    expect(remote.jobRunner.readiness!(t.task.definition)).toBe('waiting_for_network');
    expect(remote.view()).toMatchObject({ reachable: false });
    down = false;
    await waitFor('the probe to see the hosted side again', () => remote.jobRunner.readiness!(t.task.definition) === null, 10_000);
    const output = await remote.jobRunner.run(t.task, t.ctx);
    expect(output.result.text).toBe('back');
    expect(remote.jobsRepo.get(t.task.jobId)).toMatchObject({ remote_job_id: 'h2', submissions: 2 });
  });
});
