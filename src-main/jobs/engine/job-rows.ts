/**
 * The row of a new queued job: one shape whether it comes from a request, a batch item or a pending item released.
 * It records the price the job was accepted at (its own model's, or its batch's) and its estimate (jobs/billing.ts).
 */
import type { PriceSnapshot } from '../../common/pricing.js';
import { isoAt } from '../../store/clock.js';
import { newId } from '../../store/ids.js';
import type { JobRow } from '../../store/jobs-repo.js';
import { estimatedSecondsOf, jobEstimate, priceSnapshot } from '../money/billing.js';
import { ApiError } from '../../common/errors.js';
import { noAccount } from '../../common/error-messages.js';
import type { JobCore } from './job-core.js';
import type { NewJob } from './job-service-types.js';

export function newJobRow(core: JobCore, job: NewJob, batchId: string | null, price: PriceSnapshot): JobRow {
  const { clock, queueWindowSeconds } = core.options;
  const at = clock();
  const created = at.toISOString();
  const seconds = estimatedSecondsOf(job.estimatedSeconds, job.input);
  return {
    id: newId('job', at.getTime()),
    account_id: job.accountId,
    product: job.product,
    model_id: job.modelId,
    name: job.name,
    language: job.language,
    status: 'queued',
    error_code: null,
    error_message: null,
    params_json: JSON.stringify(job.params),
    input_json: JSON.stringify(job.input),
    duration_seconds: null,
    result_json: null,
    progress: null,
    batch_id: batchId,
    attempts: 0,
    cancel_requested: 0,
    pause_requested: 0,
    claimed_by: null,
    lease_expires_at: null,
    estimated_usd_micro: job.estimatedUsdMicro ?? jobEstimate(price.pricing, job.params, seconds, batchId !== null),
    estimated_seconds: seconds,
    price_json: JSON.stringify(price),
    reserved_usd_micro: null,
    deadline_at: isoAt(clock, queueWindowSeconds * 1000),
    created_at: created,
    started_at: null,
    finished_at: null,
    updated_at: created,
  };
}

/**
 * The row of a speech-to-text job made from a live session (a dictation, local or hosted): its account must still
 * exist (unauthorized otherwise), and it is priced like a recording of the length received, from the catalogue's
 * record of its model.
 */
export async function liveSessionJobRow(core: JobCore, job: Omit<NewJob, 'product'>): Promise<{ row: JobRow; price: PriceSnapshot }> {
  if (!(await core.store.repos.accounts.getAccount(job.accountId))) throw new ApiError('unauthorized', noAccount(job.accountId));
  const price = priceSnapshot(core.options.resolveModel(job.modelId));
  return { row: newJobRow(core, { ...job, product: 'speech-to-text' }, null, price), price };
}
