/**
 * Pending batch items (spec: a batch item is `pending` before it is queued, and its job_id is available once it is
 * queued). A batch on a model whose runner places batches as a whole (the hosted service: one hosted batch per local
 * batch) is held: its items are stored without jobs, and only once the runner has placed the batch do they become
 * queued jobs that run one by one. Until then they are pending, counted in `remaining`, with the reason they wait
 * (the hosted account's open batches, the network) as their error_code. A held batch whose placement is refused
 * (the hosted service rejects it, no hosted service is configured) has its items fail with that code; a batch
 * cancelled or left waiting past the queue window has them cancelled or expired. Every item becomes a job in the
 * same transaction, so a batch is never half pending. Before it is placed, the batch passes the monthly spending
 * cap as a whole (its estimate reserved, or its items pending with `waiting_for_budget`, which never expires).
 */
import type { WaitingCode } from '../../common/errors.js';
import type { JobStatus } from '../../common/job-states.js';
import type { EngineInput } from '../../engines/engine-types.js';
import type { ModelDefinition } from '../../engines/model-definition.js';
import type { BatchRow } from '../../store/batches-repo.js';
import { storedSnapshot } from '../money/billing.js';
import { CANCELLED_MESSAGE, guard, nowIso, type JobCore } from './job-core.js';
import type { JobTx } from './state-machine.js';
import { newJobRow } from './job-rows.js';
import type { HoldOutcome } from './job-runner.js';
import type { ResolvedOptions } from './job-service-options.js';

/** Held batches looked at per scheduling pass. */
const PASS_LIMIT = 100;

/** Whether a new batch on this model is held (its items stored pending) rather than queued at once. */
export function holdsBatches(options: ResolvedOptions, definition: ModelDefinition | undefined): boolean {
  return definition?.engine === 'remote' && options.runners.remote?.placeBatch !== undefined;
}

type Ending = { status: Extract<JobStatus, 'failed' | 'cancelled' | 'expired'>; code: string; message: string };

export interface BatchHold {
  /** Places held batches (at most one placement per batch at a time); called by every scheduling pass. */
  pass(): Promise<void>;
  /** Inside a tx: the batch's pending items become jobs and end cancelled (a batch cancel). */
  cancel(tx: JobTx, batchId: string): Promise<void>;
  /** Inside a tx: pending items of batches older than the queue window end expired. */
  expireOverdue(tx: JobTx): Promise<void>;
  /** Stops placing (shutdown): placements under way are aborted and their outcome ignored. */
  stop(): void;
}

/** `wake`: asks the job engine's loop for a pass soon (jobs were made that it should schedule). */
export function createBatchHold(core: JobCore, wake: () => void): BatchHold {
  const { options, store, machine } = core;
  const placing = new Map<string, AbortController>();
  let stopped = false;

  /** Inside a tx: every pending item of the batch becomes a queued job, then ends as `ending` says (if given). */
  async function release(tx: JobTx, batch: BatchRow, ending?: Ending): Promise<void> {
    const { repos } = tx;
    const items = await repos.batches.pendingItems(batch.id);
    const params = JSON.parse(batch.params_json) as Record<string, unknown>;
    // Every item's job is priced as the batch was when it was accepted, with the estimate stored for the item.
    const price = storedSnapshot(batch.price_json, () => options.resolveModel(batch.model_id));
    for (const item of items) {
      const input = JSON.parse(item.pending_input_json ?? '{}') as EngineInput;
      const row = newJobRow(
        core,
        {
          accountId: batch.account_id,
          product: batch.product,
          modelId: batch.model_id,
          name: item.name,
          language: batch.language,
          params,
          input,
          // Items stored before migration 010 have no estimate: the default (a text's length) applies.
          ...(batch.price_json ? { estimatedSeconds: item.estimated_seconds } : {}),
        },
        batch.id,
        price,
      );
      await repos.jobs.insert(row);
      if (!(await repos.batches.attachJob(batch.id, item.position, row.id))) throw new Error(`batch ${batch.id} item ${item.position} is no longer pending`);
      tx.touch(row.id, batch.id);
      if (ending) await tx.transition(row, ending.status, { error_code: ending.code, error_message: ending.message });
    }
    await repos.batches.setPendingReason(batch.id, null, null);
    tx.touch(null, batch.id);
  }

  async function apply(batchId: string, outcome: HoldOutcome): Promise<void> {
    await machine.tx(async (tx) => {
      const batch = await tx.repos.batches.get(batchId);
      if (!batch || batch.status !== 'open') return;
      if (outcome.kind === 'accepted') await release(tx, batch);
      else if (outcome.kind === 'refused') await release(tx, batch, { status: 'failed', code: outcome.code, message: outcome.message });
      else await wait(tx, batch, outcome.code, outcome.message);
    });
  }

  async function wait(tx: JobTx, batch: BatchRow, code: WaitingCode, message: string): Promise<void> {
    if (batch.pending_code === code && batch.pending_message === message) return;
    await tx.repos.batches.setPendingReason(batch.id, code, message);
    tx.touch(null, batch.id);
  }

  function place(batch: BatchRow, definition: ModelDefinition): void {
    const runner = options.runners.remote!;
    const controller = new AbortController();
    placing.set(batch.id, controller);
    const held = { batchId: batch.id, accountId: batch.account_id, product: batch.product, definition, params: JSON.parse(batch.params_json) as Record<string, unknown> };
    runner.placeBatch!(held, controller.signal)
      .then(
        async (outcome) => {
          if (stopped || controller.signal.aborted) return;
          await apply(batch.id, outcome).catch((error: unknown) => guard(options.log, `placing batch ${batch.id}`, () => Promise.reject(error)));
          // A placed or refused batch has jobs to schedule; a waiting one is asked again on a later pass.
          if (outcome.kind !== 'waiting') wake();
        },
        (error: unknown) => {
          if (stopped || controller.signal.aborted) return;
          options.log.info(`job engine: placing batch ${batch.id} failed: ${error instanceof Error ? error.message : String(error)}`);
        },
      )
      .finally(() => placing.delete(batch.id));
  }

  /**
   * A hosted batch is checked against the monthly spending cap as a whole before it is placed: its estimate (the fee
   * and every item) is reserved in one transaction, or its items stay pending with `waiting_for_budget`. A batch that
   * reserved once is not asked again (a later wait for the network or for the hosted account's room keeps it).
   */
  function reserveForPlacing(batchId: string): Promise<boolean> {
    return machine.tx(async (tx) => {
      const batch = await tx.repos.batches.get(batchId);
      if (!batch || batch.status !== 'open') return false;
      if (batch.reserved_usd_micro !== null) return true;
      const quote = batch.estimated_usd_micro ?? 0;
      const blocked = await core.spendingCap.check(tx.repos, batch, quote);
      if (blocked) {
        await wait(tx, batch, 'waiting_for_budget', blocked);
        return false;
      }
      await tx.repos.batches.reserve(batch.id, quote, nowIso(core));
      if (batch.pending_code === 'waiting_for_budget') {
        await tx.repos.batches.setPendingReason(batch.id, null, null);
        tx.touch(null, batch.id);
      }
      return true;
    });
  }

  async function pass(): Promise<void> {
    if (stopped) return;
    for (const batchId of await store.repos.batches.withPendingItems(PASS_LIMIT)) {
      if (placing.has(batchId)) continue;
      const batch = await store.repos.batches.get(batchId);
      if (!batch) continue;
      const definition = options.resolveModel(batch.model_id);
      if (holdsBatches(options, definition) && definition!.status === 'available') {
        if (await reserveForPlacing(batchId)) place(batch, definition!);
        continue;
      }
      // Nothing to hold for any more (the model changed, or it is gone): the items become jobs and the scheduler
      // runs, fails or parks them as it does any queued job.
      await machine.tx(async (tx) => {
        const fresh = await tx.repos.batches.get(batchId);
        if (fresh?.status === 'open') await release(tx, fresh);
      });
      wake();
    }
  }

  async function cancel(tx: JobTx, batchId: string): Promise<void> {
    const batch = await tx.repos.batches.get(batchId);
    if (!batch || batch.status !== 'open') return;
    placing.get(batchId)?.abort();
    await release(tx, batch, { status: 'cancelled', code: 'cancelled', message: CANCELLED_MESSAGE });
  }

  async function expireOverdue(tx: JobTx): Promise<void> {
    const limitMs = options.queueWindowSeconds * 1000;
    const now = new Date(nowIso(core)).getTime();
    for (const batchId of await tx.repos.batches.withPendingItems(PASS_LIMIT)) {
      const batch = await tx.repos.batches.get(batchId);
      // Held by the spending cap: it keeps its place. Once reserved, its window counts from then.
      if (!batch || batch.pending_code === 'waiting_for_budget') continue;
      if (now - new Date(batch.reserved_at ?? batch.created_at).getTime() < limitMs) continue;
      placing.get(batchId)?.abort();
      const days = options.queueWindowSeconds / 86_400;
      const window = days >= 1 ? `${+days.toFixed(2)} days` : `${options.queueWindowSeconds} s`;
      await release(tx, batch, { status: 'expired', code: 'expired', message: `The batch waited longer than ${window} to be accepted.` });
    }
  }

  function stop(): void {
    stopped = true;
    for (const controller of placing.values()) controller.abort();
  }

  return { pass, cancel, expireOverdue, stop };
}
