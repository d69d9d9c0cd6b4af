/**
 * Charges (spec formula, common/pricing.ts), written in the transaction that records the success. The ledger's
 * unique indexes make every charge happen at most once per job (and the fee once per batch), whatever replays.
 */
import type { Pricing } from '../common/api-types.js';
import { countItems } from '../common/job-states.js';
import { FREE_PRICING, toMicro, usageMicro } from '../common/pricing.js';
import type { ModelDefinition } from '../engines/model-definition.js';
import type { BatchRow } from '../store/batches-repo.js';
import type { JobRow } from '../store/jobs-repo.js';
import type { LedgerRepo } from '../store/ledger-repo.js';

export function pricingOf(definition: ModelDefinition | undefined): Pricing {
  return definition?.pricing ?? FREE_PRICING;
}

/** Priced options switched on in the job's params (`{"speaker_diarization": true}`). */
export function enabledOptions(pricing: Pricing, params: Record<string, unknown>): string[] {
  return Object.keys(pricing.options).filter((name) => params[name] === true);
}

/** A succeeded job: usage and options; the request fee too unless it belongs to a batch (charged once per batch). */
export function chargeJob(ledger: LedgerRepo, job: JobRow, pricing: Pricing, seconds: number, nowIso: string): void {
  const params = JSON.parse(job.params_json) as Record<string, unknown>;
  const base = { account_id: job.account_id, job_id: job.id, batch_id: job.batch_id, model_id: job.model_id, seconds, created_at: nowIso };
  if (job.batch_id === null) {
    ledger.charge({ ...base, kind: 'request_fee', option_name: '', amount_usd_micro: toMicro(pricing.request_fee_usd) });
  }
  ledger.charge({ ...base, kind: 'usage', option_name: '', amount_usd_micro: usageMicro(pricing, seconds).usage });
  for (const option of enabledOptions(pricing, params)) {
    const amount = usageMicro(pricing, seconds, [option]).options;
    ledger.charge({ ...base, kind: 'option', option_name: option, amount_usd_micro: amount });
  }
}

/** A completed batch with at least one succeeded item pays its single request fee. */
export function chargeBatch(ledger: LedgerRepo, batch: BatchRow, items: readonly JobRow[], pricing: Pricing, nowIso: string): void {
  if (countItems(items.map((j) => j.status)).succeeded === 0) return;
  ledger.charge({
    account_id: batch.account_id,
    job_id: null,
    batch_id: batch.id,
    model_id: batch.model_id,
    kind: 'request_fee',
    option_name: '',
    seconds: 0,
    amount_usd_micro: toMicro(pricing.request_fee_usd),
    created_at: nowIso,
  });
}
