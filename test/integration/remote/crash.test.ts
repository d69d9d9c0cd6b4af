/**
 * The local service is killed with SIGKILL after the hosted service has accepted the job but before the hosted
 * job id is recorded (VOXDESK_TEST_CRASH_POINT=remote-after-submit). After a restart the job is posted again with
 * the same Idempotency-Key: the hosted side answers with the job it already has, so exactly one hosted job exists
 * and each ledger shows one charge. The local side is a real `node bin/voxdesk.js serve` child process; the
 * hosted endpoint reaches it through VOXDESK_REMOTE_URL / VOXDESK_REMOTE_KEY.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Job } from '../../../src-main/common/api-types.js';
import { openDatabase } from '../../../src-main/store/database.js';
import { stopServe, type ServeProcess, type TestService } from '../../helpers/service.js';
import { JFK, api, audioForm, listJobs, localLedger, startForwardingServe, startHosted, waitFor } from '../../helpers/two-instances.js';
import { scaled } from '../../helpers/time-scale.js';

/** Registered by `serve` for the local account (VOXDESK_API_KEY), so the test can call the child. */
const LOCAL_KEY = 'vdk_crash_test_local_key_0123456789abcdef';

/** `node bin/voxdesk.js serve` forwarding to the hosted instance; resolves once the hosted catalogue is cached. */
function startLocalProcess(dataDir: string, env: NodeJS.ProcessEnv): Promise<ServeProcess> {
  return startForwardingServe(dataDir, { key: LOCAL_KEY, model: 'remote:pocketsphinx-en-us', env });
}

let hosted: TestService | undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'voxdesk-crash-local-'));
let running: ServeProcess | undefined;

afterAll(async () => {
  await stopServe(running);
  await hosted?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('crash between hosted submission and recording the hosted id', () => {
  it('posts again with the same Idempotency-Key after a restart: one hosted job, one charge on each side', async () => {
    hosted = await startHosted();
    const env = { VOXDESK_REMOTE_URL: hosted.url, VOXDESK_REMOTE_KEY: hosted.key };
    running = await startLocalProcess(dataDir, { ...env, VOXDESK_TEST_CRASH_POINT: 'remote-after-submit' });
    const post = api<Job>(running.url, LOCAL_KEY, 'POST', '/v1/speech-to-text', audioForm('remote:pocketsphinx-en-us', [JFK], { name: 'jfk' }))
      .then((r) => r, (error: unknown) => error);
    const exit = await running.exited;
    expect(exit.signal).toBe('SIGKILL');
    await post; // the answer may or may not have been sent before the kill; the job is what matters

    // The hosted job exists, and the local database knows the key but not the hosted id.
    const hostedJobs = await waitFor('the hosted job', async () => {
      const jobs = await listJobs(hosted!.url, hosted!.key);
      return jobs.length ? jobs : undefined;
    });
    expect(hostedJobs).toHaveLength(1);
    const db = openDatabase(join(dataDir, 'voxdesk.db'));
    const rows = db.prepare<[], { job_id: string; remote_job_id: string | null; idempotency_key: string; submissions: number }>('SELECT * FROM remote_jobs').all();
    db.close();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ remote_job_id: null, idempotency_key: `voxdesk-${rows[0]!.job_id}`, submissions: 1 });

    running = await startLocalProcess(dataDir, env);
    const done = await waitFor('the local job to finish after the restart', async () => {
      const job = (await api<Job>(running!.url, LOCAL_KEY, 'GET', `/v1/speech-to-text/${rows[0]!.job_id}`)).body;
      return job.finished_at ? job : undefined;
    }, scaled(120_000));
    expect(done).toMatchObject({ status: 'succeeded', name: 'jfk' });
    const after = await listJobs(hosted.url, hosted.key);
    expect(after).toHaveLength(1);
    expect(done.result!.text).toBe(after[0]!.result!.text);
    await stopServe(running);

    const check = openDatabase(join(dataDir, 'voxdesk.db'));
    const row = check.prepare<[], { remote_job_id: string; submissions: number }>('SELECT * FROM remote_jobs').get()!;
    expect(row).toMatchObject({ remote_job_id: after[0]!.id, submissions: 2 });
    expect(localLedger(check).filter((e) => e.kind === 'request_fee')).toHaveLength(1);
    check.close();
    expect(localLedger(hosted.service.db).filter((e) => e.kind === 'request_fee')).toHaveLength(1);
  }, scaled(240_000));
});
