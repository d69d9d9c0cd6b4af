/**
 * The remote runner's failure handling, against a scripted hosted side (node:http on loopback — the network is
 * the boundary) and a real SQLite file: 500s retried then remote_failed, 502/refused → waiting_for_network and
 * readiness holding jobs back until the probe gets an answer, a vanished hosted job, a rejection passing its code.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { JobError } from '../../../src-main/common/errors.js';
import type { RunnerContext, RunnerTask } from '../../../src-main/jobs/engine/job-runner.js';
import type { RemoteProvider } from '../../../src-main/remote/remote-provider.js';
import { AT, CATALOGUE, runnerTask, send, startScriptedHosted, type ScriptedHosted } from '../../helpers/scripted-hosted.js';
import { waitFor } from '../../helpers/two-instances.js';
import { scaled } from '../../helpers/time-scale.js';

let hosted: ScriptedHosted;
let remote: RemoteProvider;

beforeAll(async () => {
  hosted = await startScriptedHosted('remote-runner', { offlineInitialMs: 50, offlineMaxMs: 200, serverErrorRetries: 2, pollInitialMs: 20, pollMaxMs: 50 });
  remote = hosted.remote;
});
beforeEach(() => hosted.reset());
afterAll(() => hosted?.close());

let seq = 0;
function task(): { task: RunnerTask; ctx: RunnerContext } {
  const jobId = `job_test_${++seq}`;
  hosted.db.prepare(
    `INSERT INTO jobs (id, account_id, product, model_id, name, status, params_json, input_json, created_at, updated_at)
     VALUES (?, 'acc_1', 'text-to-speech', 'remote:tts', 'label', 'running', '{}', '{"text":"hi"}', '${AT}', '${AT}')`,
  ).run(jobId);
  return runnerTask(hosted, jobId, 'hi');
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
  it('takes a POST held until success as the outcome: no poll, nothing mirrored before the settle, the status stored once', async () => {
    hosted.handler = (call, res) => send(res, 200, { id: 'h0', status: 'succeeded', duration_seconds: '2.250', progress: 1, result: { text: 'done' } });
    const t = task();
    const seen: string[] = [];
    t.ctx.progress = (p) => seen.push(`progress ${p}`);
    t.ctx.measured = (s) => seen.push(`measured ${s}`);
    const output = await remote.jobRunner.run(t.task, t.ctx);
    // The job engine commits duration and result with the success in one transaction (job-executor.ts settleSuccess).
    expect(output).toEqual({ result: { text: 'done' }, artifacts: [], durationSeconds: 2.25 });
    expect(seen).toEqual([]);
    expect(hosted.calls.map((c) => c.method)).toEqual(['POST']);
    expect(await remote.jobsRepo.get(t.task.jobId)).toMatchObject({ remote_job_id: 'h0', remote_status: 'succeeded', submissions: 1 });
  });

  it('still mirrors a held POST that ended otherwise (its duration stays on the failed job)', async () => {
    hosted.handler = (call, res) => send(res, 200, { id: 'h00', status: 'failed', duration_seconds: '1.000', error_code: 'engine_failed', error_message: 'hosted broke' });
    const t = task();
    const seen: string[] = [];
    t.ctx.measured = (s) => seen.push(`measured ${s}`);
    expect((await runError(t)).code).toBe('engine_failed');
    expect(seen).toEqual(['measured 1']);
  });

  it('sends the job label and follows a queued hosted job to success by polling', async () => {
    let polls = 0;
    hosted.handler = (call, res) => {
      if (call.method === 'POST') return send(res, 200, { id: 'h1', status: 'queued', duration_seconds: null });
      polls++;
      send(res, 200, polls < 3 ? { id: 'h1', status: 'running', progress: 0.5 } : { id: 'h1', status: 'succeeded', duration_seconds: '1.500', result: { text: 'ok' } });
    };
    const t = task();
    const progress: number[] = [];
    t.ctx.progress = (p) => progress.push(p);
    const output = await remote.jobRunner.run(t.task, t.ctx);
    expect(output).toEqual({ result: { text: 'ok' }, artifacts: [], durationSeconds: 1.5 });
    expect(JSON.parse(hosted.calls.find((c) => c.method === 'POST')!.body)).toEqual({ model: 'tts', text: 'hi', params: {}, name: 'label' });
    expect(progress).toContain(0.5);
    expect(await remote.jobsRepo.get(t.task.jobId)).toMatchObject({ remote_job_id: 'h1', remote_status: 'succeeded', submissions: 1 });
    expect(hosted.calls.filter((c) => c.method === 'GET' && c.url === '/v1/text-to-speech/h1')).toHaveLength(3);
  });

  it('retries a hosted 500 and then fails remote_failed', async () => {
    hosted.handler = (_call, res) => send(res, 500, { error: { code: 'internal_error', message: 'boom' } });
    const error = await runError(task());
    expect(error.code).toBe('remote_failed');
    expect(error.message).toMatch(/boom/);
    expect(hosted.calls.filter((c) => c.method === 'POST')).toHaveLength(3); // first try + 2 retries
  });

  it('passes a hosted rejection code through', async () => {
    hosted.handler = (_call, res) => send(res, 422, { error: { code: 'model_unavailable', message: 'gone for maintenance' } });
    const error = await runError(task());
    expect(error).toMatchObject({ code: 'model_unavailable', message: 'hosted service: gone for maintenance' });
  });

  it('fails remote_failed when a followed hosted job vanishes', async () => {
    hosted.handler = (call, res) =>
      call.method === 'POST' ? send(res, 200, { id: 'h404', status: 'running' }) : send(res, 404, { error: { code: 'not_found', message: 'no such job' } });
    const error = await runError(task());
    expect(error.code).toBe('remote_failed');
  });

  it('ends with waiting_for_network on a 502, holds jobs back, and lets them go once the hosted side answers', async () => {
    let down = true;
    // While down, the catalogue probe gets the 502 too.
    hosted.catalogueUp = false;
    hosted.handler = (call, res) => {
      if (down) return send(res, 502, { error: { code: 'bad_gateway', message: 'proxy' } });
      if (call.url.startsWith('/v1/models')) return send(res, 200, CATALOGUE);
      send(res, 200, { id: 'h2', status: 'succeeded', duration_seconds: '2.000', result: { text: 'back' } });
    };
    const t = task();
    const error = await runError(t);
    expect(error.code).toBe('waiting_for_network');
    expect(remote.jobRunner.readiness!(t.task.definition)).toBe('waiting_for_network');
    expect(remote.view()).toMatchObject({ reachable: false });
    down = false;
    await waitFor('the probe to see the hosted side again', () => remote.jobRunner.readiness!(t.task.definition) === null, scaled(10_000));
    const output = await remote.jobRunner.run(t.task, t.ctx);
    expect(output.result.text).toBe('back');
    expect(await remote.jobsRepo.get(t.task.jobId)).toMatchObject({ remote_job_id: 'h2', submissions: 2 });
  });
});
