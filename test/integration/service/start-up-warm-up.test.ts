/**
 * The start-up warm-up request (service/start-up-warm-up.ts) goes through the real HTTP stack and stops at params
 * validation: it leaves no job and no charge behind, starts no worker, and a job sent while the service starts is
 * served beside it (the warm-up is then sent or skipped, depending on whether that job already runs).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../../src-main/common/api-types.js';
import type { JobEngine } from '../../../src-main/jobs/engine/job-service.js';
import { WARM_UP_PARAM } from '../../../src-main/service/start-up-warm-up.js';
import { Client, json } from '../../helpers/http-client.js';
import { startTestService, type TestService } from '../../helpers/service.js';

let t: TestService;
let api: Client;
let busy: TestService | undefined;

beforeAll(async () => {
  t = await startTestService({ holdSeconds: 60 });
  api = new Client(t.url, t.key);
});

afterAll(async () => {
  await t?.stop();
  await busy?.stop();
});

describe('start-up warm-up', () => {
  it('is refused at params validation, naming the param no model accepts, and starts no worker', async () => {
    expect(await t.service.warmUp).toEqual({ status: 400, code: 'unsupported_param' });
    expect((t.service.jobs as JobEngine).workerStats()).toMatchObject({ started: 0, pids: [] });
    const refused = await api.postJson('/v1/text-to-speech', { model: 'espeak-ng', text: 'Warm-up.', params: { [WARM_UP_PARAM]: true } });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(WARM_UP_PARAM);
  });

  it('leaves nothing behind: the only job and the only charges are those of the job a client sent during start-up', async () => {
    busy = await startTestService({ holdSeconds: 60 });
    const client = new Client(busy.url, busy.key);
    // Sent at once: the warm-up request is skipped if this job already runs when the service is listening.
    const job = await json<Job>(client.postJson('/v1/text-to-speech', { model: 'espeak-ng', text: 'Hello there.' }));
    expect(job).toMatchObject({ status: 'succeeded', model_id: 'espeak-ng' });
    const warmUp = await busy.service.warmUp;
    expect([{ status: 0, code: null }, { status: 400, code: 'unsupported_param' }]).toContainEqual(warmUp);
    const jobs = await json<{ data: Job[] }>(client.get('/v1/jobs'));
    expect(jobs.data.map((j) => j.id)).toEqual([job.id]);
    // The warm-up's key is the local account's, like the client's; a job's rows in the ledger all name it.
    const local = await busy.service.keys.ensureAccount('local');
    expect(new Set(busy.service.repos.ledger.forAccount(local).map((entry) => entry.job_id))).toEqual(new Set([job.id]));
  });
});
