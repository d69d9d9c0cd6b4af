/**
 * A live dictation on a hosted model is recognised, recorded and charged by the hosted service (its job, in the
 * hosted account). So that it is in this device's Jobs too — with its transcript, its recording and its exports, like
 * any hosted transcription — a local job follows the hosted one: it is queued with its remote_jobs row already naming
 * the hosted job, in one transaction, so the remote runner only reads that job (it never submits anything) and settles
 * the local job from it the way it settles every hosted job (result, recording downloaded, segment rows, charge).
 * The hosted service has already done (and billed) the work, so the local job is never held by the monthly spending
 * cap: it is accepted with its estimate reserved (the cap was checked when the session opened), like hosted work
 * under way, until its charge is in the ledger.
 */
import type { Job } from '../../common/api-types.js';
import type { JobCore } from './job-core.js';
import { liveSessionJobRow } from './job-rows.js';
import type { HostedDictationJob } from './job-service-types.js';

export async function followHostedDictation(core: JobCore, input: HostedDictationJob): Promise<Job> {
  const { store, machine } = core;
  const { row } = await liveSessionJobRow(core, {
    accountId: input.accountId,
    modelId: input.modelId,
    name: input.name,
    language: null,
    params: { response_format: 'verbose_json' },
    input: {},
    estimatedSeconds: input.seconds ?? null,
  });
  row.reserved_usd_micro = row.estimated_usd_micro ?? 0;
  await machine.tx(async (tx) => {
    const { repos } = tx;
    await repos.jobs.insert(row);
    await repos.remoteJobs.ensure({
      jobId: row.id,
      endpointUrl: input.endpointUrl,
      product: 'speech-to-text',
      remoteModelId: input.remoteModelId,
      // Never sent: the hosted job exists already, so nothing is submitted with it.
      idempotencyKey: `voxdesk-dictation-${input.remoteJobId}`,
    });
    await repos.remoteJobs.recordRemoteJob(row.id, input.remoteJobId, 'succeeded');
    tx.touch(row.id, null);
  });
  const written = await store.repos.jobs.get(row.id);
  if (!written) throw new Error(`job ${row.id} vanished`);
  return core.views.job(written);
}
