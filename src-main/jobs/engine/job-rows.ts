/**
 * The row of a new queued job: one shape whether it comes from a request, a batch item or a pending item released.
 * It records the price the job was accepted at (its own model's, or its batch's) and its estimate (jobs/billing.ts).
 */
import type { PriceSnapshot } from '../../common/pricing.js';
import { isoAt } from '../../store/clock.js';
import { newId } from '../../store/ids.js';
import type { JobRow } from '../../store/jobs-repo.js';
import { estimatedSecondsOf, jobEstimate } from '../money/billing.js';
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
