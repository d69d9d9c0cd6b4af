/**
 * The local service is killed with SIGKILL after the hosted service has accepted a forwarded batch but before the
 * hosted batch id is recorded (VOXDESK_TEST_CRASH_POINT=remote-batch-after-submit). After a restart the batch is
 * posted again with the same Idempotency-Key (`voxdesk-<local batch id>`, same items in the same order): the hosted
 * side answers with the batch it already has, so exactly one hosted batch exists and each ledger shows one fee.
 * The local side is a real `node bin/voxdesk.js serve` child process given the hosted URL by --remote-url.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Batch } from '../../../src-main/common/api-types.js';
import { openDatabase } from '../../../src-main/store/database.js';
import { stopServe, type ServeProcess, type TestService } from '../../helpers/service.js';
import { JFK, api, audioForm, localLedger, startForwardingServe, startHosted, waitFor } from '../../helpers/two-instances.js';
import { scaled } from '../../helpers/time-scale.js';

const LOCAL_KEY = 'vdk_batch_crash_test_local_key_0123456789';

function startLocalProcess(dataDir: string, remoteUrl: string, env: NodeJS.ProcessEnv): Promise<ServeProcess> {
  return startForwardingServe(dataDir, { key: LOCAL_KEY, model: 'remote:test-asr', args: ['--remote-url', remoteUrl], env });
}

let hosted: TestService | undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'voxdesk-batch-crash-local-'));
let running: ServeProcess | undefined;

afterAll(async () => {
  await stopServe(running);
  await hosted?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('crash between the hosted batch submission and recording the hosted batch id', () => {
  it('replays the batch POST after a restart: exactly one hosted batch, one fee on each side', async () => {
    hosted = await startHosted();
    const env = { VOXDESK_REMOTE_KEY: hosted.key, VOXDESK_REMOTE_URL: '' };
    running = await startLocalProcess(dataDir, hosted.url, { ...env, VOXDESK_TEST_CRASH_POINT: 'remote-batch-after-submit' });
    const form = audioForm('remote:test-asr', [JFK, JFK, JFK], { params: JSON.stringify({ behaviour: 'succeed', seconds: 3 }) });
    const { status, body: batch } = await api<Batch>(running.url, LOCAL_KEY, 'POST', '/v1/speech-to-text/batch', form);
    expect(status).toBe(200);
    const exit = await running.exited;
    expect(exit.signal).toBe('SIGKILL');

    const hostedBatches = async (): Promise<Batch[]> => (await api<{ data: Batch[] }>(hosted!.url, hosted!.key, 'GET', '/v1/batches')).body.data;
    expect(await hostedBatches()).toHaveLength(1);
    const db = openDatabase(join(dataDir, 'voxdesk.db'));
    const row = db.prepare<[string], { remote_batch_id: string | null; idempotency_key: string; submissions: number }>('SELECT * FROM remote_batches WHERE batch_id = ?').get(batch.id);
    db.close();
    expect(row).toMatchObject({ remote_batch_id: null, idempotency_key: `voxdesk-${batch.id}`, submissions: 1 });

    running = await startLocalProcess(dataDir, hosted.url, env);
    const done = await waitFor('the local batch to complete after the restart', async () => {
      const b = (await api<Batch>(running!.url, LOCAL_KEY, 'GET', `/v1/speech-to-text/batch/${batch.id}`)).body;
      return b.status === 'complete' ? b : undefined;
    }, scaled(120_000));
    expect(done).toMatchObject({ succeeded: 3, failed: 0 });
    const after = await hostedBatches();
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ file_count: 3, succeeded: 3 });
    await stopServe(running);

    const check = openDatabase(join(dataDir, 'voxdesk.db'));
    expect(check.prepare('SELECT remote_batch_id, submissions FROM remote_batches').get()).toEqual({ remote_batch_id: after[0]!.id, submissions: 2 });
    const mine = localLedger(check);
    check.close();
    const theirs = localLedger(hosted.service.db);
    expect(mine.filter((e) => e.kind === 'request_fee')).toHaveLength(1);
    expect(theirs.filter((e) => e.kind === 'request_fee')).toHaveLength(1);
    expect(mine.filter((e) => e.kind === 'usage')).toHaveLength(3);
    expect(theirs.filter((e) => e.kind === 'usage')).toHaveLength(3);
    expect(mine.reduce((sum, e) => sum + e.amount_usd_micro, 0)).toBe(theirs.reduce((sum, e) => sum + e.amount_usd_micro, 0));
  }, scaled(240_000));
});
