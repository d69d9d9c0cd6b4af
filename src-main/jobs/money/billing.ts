/**
 * Money in the job engine, from one price source: a job or batch records the price of its model's catalogue record
 * (the pricing file applied: `resolveModel` answers the catalogue's resolved definition) when it is accepted, with
 * its estimate; when it succeeds it is charged at that recorded price for the `duration_seconds` it shows
 * (common/pricing.ts chargesFor). The charges are written in the transaction that records the success, and the
 * ledger's unique indexes make every charge happen at most once per job (and the fee once per batch).
 */
import type { Pricing } from '../../common/api-types.js';
import { countItems } from '../../common/job-states.js';
import { chargesFor, enabledOptions, estimateMicro, FREE_PRICING, textSeconds, type PriceSnapshot } from '../../common/pricing.js';
import type { EngineInput } from '../../engines/engine-types.js';
import type { ModelDefinition } from '../../engines/model-definition.js';
import type { BatchRow } from '../../store/batches-repo.js';
import type { JobRow } from '../../store/jobs-repo.js';
import type { LedgerRepo, NewCharge } from '../../store/ledger-repo.js';
import type { Async } from '../../store/store.js';

/** The price a job or batch on this model is accepted at (the catalogue's resolved record; free when it has none). */
export function priceSnapshot(definition: ModelDefinition | undefined): PriceSnapshot {
  return { pricing: definition?.pricing ?? FREE_PRICING, hosted: definition?.engine === 'remote' };
}

/** A stored snapshot, or (rows written before migration 010) the model's price now. */
export function storedSnapshot(json: string | null, definition: () => ModelDefinition | undefined): PriceSnapshot {
  if (json) return JSON.parse(json) as PriceSnapshot;
  return priceSnapshot(definition());
}

/**
 * Seconds a job is priced at before it runs: what the caller measured (a recording's probed length), else the length
 * of the text it speaks at the speaking rate (the spec prices texts before queueing), else null (charged when it has
 * run).
 */
export function estimatedSecondsOf(given: number | null | undefined, input: EngineInput): number | null {
  if (given !== undefined) return given;
  return typeof input.text === 'string' && !input.filePath ? textSeconds(input.text) : null;
}

/** A job's estimate: usage and options for its seconds, plus the request fee unless it is a batch item. */
export function jobEstimate(pricing: Pricing, params: Record<string, unknown>, seconds: number | null, inBatch: boolean): number {
  return estimateMicro(pricing, [seconds], enabledOptions(pricing, params), !inBatch);
}

/** A batch's estimate: one request fee plus every item's usage and options. */
export function batchEstimate(pricing: Pricing, params: Record<string, unknown>, itemSeconds: readonly (number | null)[]): number {
  return estimateMicro(pricing, itemSeconds, enabledOptions(pricing, params), true);
}

function rowBase(snapshot: PriceSnapshot, row: { account_id: string; model_id: string; product: string }, at: string) {
  return { account_id: row.account_id, model_id: row.model_id, product: row.product, provider: snapshot.hosted ? ('remote' as const) : ('local' as const), created_at: at };
}

/**
 * A succeeded job: usage and options; the request fee too unless it belongs to a batch (charged once per batch). A
 * batch item is charged its share of the batch's total rounded once (common/pricing.ts chargesFor): the batch's
 * rows then add up to what a quote for all its seconds says, whatever order its items finish in.
 */
export async function chargeJob(ledger: Async<LedgerRepo>, job: JobRow, snapshot: PriceSnapshot, seconds: number, nowIso: string): Promise<void> {
  const params = JSON.parse(job.params_json) as Record<string, unknown>;
  const base = { ...rowBase(snapshot, job, nowIso), job_id: job.id, batch_id: job.batch_id, seconds };
  const charged = job.batch_id === null ? 0 : await ledger.batchUsageSeconds(job.batch_id);
  for (const charge of chargesFor(snapshot.pricing, seconds, enabledOptions(snapshot.pricing, params), job.batch_id === null, charged)) {
    await ledger.charge({ ...base, ...charge } satisfies NewCharge);
  }
}

/** A completed batch with at least one succeeded item pays its single request fee. */
export async function chargeBatch(ledger: Async<LedgerRepo>, batch: BatchRow, items: readonly JobRow[], snapshot: PriceSnapshot, nowIso: string): Promise<void> {
  if (countItems(items.map((j) => j.status)).succeeded === 0) return;
  const [fee] = chargesFor(snapshot.pricing, 0, [], true);
  await ledger.charge({ ...rowBase(snapshot, batch, nowIso), job_id: null, batch_id: batch.id, seconds: 0, ...fee! });
}
