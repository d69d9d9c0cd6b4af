/**
 * A local batch on a hosted model is forwarded as ONE hosted batch (`POST /v1/{product}/batch`), so the hosted
 * ledger shows one request fee like the local one. One coordinator per local batch owns the single submission
 * (Idempotency-Key `voxdesk-<local batch id>`, the remote_batches row written first) and the single poller
 * (GET /v1/{product}/batch/{id} with backoff); item runs only await their own hosted item, then read it once and
 * download its artifacts. A hosted 429 (`too_many_open_batches`: the account's two open batches) is not a failure:
 * the items go back to the queue with `waiting_for_capacity` and the submission is tried again with backoff.
 */
import type { Batch, BatchFile } from '../common/api-types.js';
import { hostedCode, JobError, type WaitingCode } from '../common/errors.js';
import { isTerminal } from '../common/job-states.js';
import type { Product } from '../common/products.js';
import type { EngineInput, EngineOutput } from '../engines/engine-types.js';
import { RemoteClient, type RemoteBatchSubmission } from './remote-client.js';
import { RemoteError } from './remote-errors.js';
import { sleep } from './abortable-sleep.js';
import { Follower } from './remote-follower.js';
import { idempotencyKeyFor } from './remote-options.js';
import type { RemoteBatchRow } from '../store/remote-batches-repo.js';
import { CRASH_AFTER_BATCH_SUBMIT, type RemoteRunContext, type RemoteRunnerDeps, type RemoteTask } from './remote-run-types.js';
import { withServerRetry } from './server-retry.js';

/** One item of the local batch, as the forwarder sends it. */
interface LocalBatchItem {
  position: number;
  name: string | null;
  status: string;
  cancelRequested: boolean;
  input: EngineInput;
}

export class BatchForwarder {
  private readonly coordinators = new Map<string, BatchCoordinator>();
  /** Aborted by stop(): ends the pauses of the shared submissions and pollers, which no single item run owns. */
  private readonly stopped = new AbortController();

  constructor(private readonly deps: RemoteRunnerDeps) {}

  /** After the job engine stopped: no hosted batch is retried or polled any more (the next start resumes them). */
  stop(): void {
    this.stopped.abort(new Error('the hosted-batch forwarder stopped'));
  }

  readiness(batchId: string): { code: WaitingCode; message: string } | null {
    return this.coordinators.get(batchId)?.capacityWait() ?? null;
  }

  /**
   * Cancels hosted batches left open while every local item already ended — a local cancel or expiry of items that
   * were queued here, not running, so no item run could pass it on. Nothing then runs (or is charged) hosted for
   * items the local side will never take.
   */
  async cancelOrphans(key: string): Promise<void> {
    for (const row of await this.deps.batches.orphans()) {
      if (this.coordinators.get(row.batch_id)?.busy()) continue;
      const client = new RemoteClient({ url: row.endpoint_url, key }, this.deps.options);
      const product = row.product as Product;
      try {
        const cancelled = await client.cancelBatch(product, row.remote_batch_id!);
        const batch = cancelled ?? (await cancelItems(client, product, row.remote_batch_id!));
        await this.deps.batches.recordStatus(row.batch_id, batch.status);
        this.deps.log.info(`${row.batch_id}: every local item ended; hosted batch ${row.remote_batch_id} cancelled`);
      } catch (error) {
        await this.deps.batches.recordError(row.batch_id, (error as Error).message);
        if (error instanceof RemoteError && error.status === 404) await this.deps.batches.recordStatus(row.batch_id, 'vanished');
      }
    }
  }

  coordinator(batchId: string, product: Product, hostedModel: string, endpointUrl: string): BatchCoordinator {
    let found = this.coordinators.get(batchId);
    if (!found) {
      found = new BatchCoordinator(batchId, product, hostedModel, endpointUrl, this.deps, this.stopped.signal, () => this.coordinators.delete(batchId));
      this.coordinators.set(batchId, found);
    }
    return found;
  }
}

interface Waiter {
  index: number;
  ctx: RemoteRunContext;
  resolve(file: BatchFile): void;
  reject(error: unknown): void;
}

export class BatchCoordinator {
  private submitting: Promise<string> | undefined;
  private latest: Batch | undefined;
  private readonly waiters = new Set<Waiter>();
  private polling = false;
  private capacity: { retryAt: number; delay: number; message: string } | undefined;
  private batchCancelled = false;

  constructor(
    readonly batchId: string,
    private readonly product: Product,
    private readonly hostedModel: string,
    private readonly endpointUrl: string,
    private readonly deps: RemoteRunnerDeps,
    /** The forwarder's stop: ends the pauses of the shared submission and poller. */
    private readonly stopped: AbortSignal,
    /** Called once the hosted batch is complete and nobody waits: the forwarder forgets this coordinator. */
    private readonly onDone: () => void,
  ) {}

  /** Item runs are waiting on this batch right now (the sweep leaves it to them). */
  busy(): boolean {
    return this.waiters.size > 0 || this.submitting !== undefined;
  }

  /** While a 429 backoff runs, the batch's queued items stay queued with this code. */
  capacityWait(): { code: WaitingCode; message: string } | null {
    if (!this.capacity || Date.now() >= this.capacity.retryAt) return null;
    return { code: 'waiting_for_capacity', message: this.capacity.message };
  }

  /**
   * Places the batch while its local items are still pending (jobs/batch-hold.ts): the ONE submission (the same one
   * an item run would make), resolving with the hosted batch id once the hosted service has accepted it. Throws what
   * a submission throws: JobError waiting_for_capacity during a 429 backoff, RemoteError otherwise.
   */
  async place(key: string, signal: AbortSignal): Promise<string> {
    const row = await this.ensureRow();
    return this.submitted(new RemoteClient({ url: row.endpoint_url, key }, this.deps.options), signal);
  }

  /**
   * Runs one item: makes sure the hosted batch exists, waits for the item's hosted outcome and mirrors it.
   * Undefined when the item was not part of the hosted batch (it was already finished when the batch was sent).
   */
  async runItem(task: RemoteTask, position: number, ctx: RemoteRunContext, key: string, onFollower: (f: Follower) => void): Promise<EngineOutput | undefined> {
    const row = await this.ensureRow();
    const positions = JSON.parse(row.positions_json) as number[];
    const index = positions.indexOf(position);
    if (index < 0) return undefined;
    await this.deps.jobs.ensure({
      jobId: task.jobId,
      endpointUrl: row.endpoint_url,
      product: this.product,
      remoteModelId: row.remote_model_id,
      idempotencyKey: row.idempotency_key,
    });
    const client = new RemoteClient({ url: row.endpoint_url, key }, this.deps.options);
    const follow = new Follower(client, task, ctx, this.deps);
    onFollower(follow);
    const remoteBatchId = await this.submitted(client, ctx.signal);
    const file = await this.awaitItem(client, remoteBatchId, index, ctx);
    if (!file.job_id) throw new RemoteError('server', 'invalid_batch', `item ${index} of the hosted batch ${remoteBatchId} has no job id`, 200);
    await this.deps.jobs.recordRemoteJob(task.jobId, file.job_id, file.status);
    follow.adopt(file.job_id);
    const job = await follow.withRetry('read the hosted item', (s) => client.getJob(this.product, file.job_id!, s));
    await this.deps.jobs.recordStatus(task.jobId, job.status);
    follow.mirror(job);
    return follow.finish(job);
  }

  /**
   * Best effort, on a local cancel: the whole hosted batch when every local item is cancelled or finished
   * (POST …/batch/{id}/cancel, or its items one by one when the hosted side has no such route), else this item.
   */
  async cancelRemote(position: number, key: string, follow: Follower | undefined): Promise<void> {
    try {
      const stored = await this.deps.batches.get(this.batchId);
      const client = new RemoteClient({ url: stored?.endpoint_url ?? this.endpointUrl, key }, this.deps.options);
      const remoteId = stored?.remote_batch_id ?? (await this.submitting?.catch(() => undefined));
      if (!remoteId) return;
      const items = await this.localItems();
      const whole = items.every((i) => i.cancelRequested || isTerminal(i.status as Parameters<typeof isTerminal>[0]));
      if (!whole) {
        const positions = JSON.parse((await this.deps.batches.get(this.batchId))!.positions_json) as number[];
        const index = positions.indexOf(position);
        const jobId = this.latest?.files[index]?.job_id ?? (await client.getBatch(this.product, remoteId)).files[index]?.job_id;
        if (jobId) await client.cancelJob(this.product, jobId);
        else await follow?.cancelRemote();
        return;
      }
      if (this.batchCancelled) return;
      this.batchCancelled = true;
      if (await client.cancelBatch(this.product, remoteId)) return;
      await cancelItems(client, this.product, remoteId);
    } catch (error) {
      this.deps.log.info(`${this.batchId}: cancel of the hosted batch failed: ${(error as Error).message}`);
    }
  }

  private async localItems(): Promise<LocalBatchItem[]> {
    return (await this.deps.batches.items(this.batchId)).map((r) => ({
      position: r.position,
      name: r.name,
      status: r.status,
      cancelRequested: r.cancel_requested === 1,
      input: JSON.parse(r.input_json) as EngineInput,
    }));
  }

  /** The remote_batches row; the first call chooses the items to send: those not finished locally. */
  private async ensureRow(): Promise<RemoteBatchRow> {
    const existing = await this.deps.batches.get(this.batchId);
    if (existing) {
      await this.deps.batches.retarget(this.batchId, this.endpointUrl);
      return (await this.deps.batches.get(this.batchId))!;
    }
    const positions = (await this.localItems())
      .filter((i) => !isTerminal(i.status as Parameters<typeof isTerminal>[0]))
      .map((i) => i.position);
    return this.deps.batches.ensure({
      batchId: this.batchId,
      endpointUrl: this.endpointUrl,
      product: this.product,
      remoteModelId: this.hostedModel,
      idempotencyKey: idempotencyKeyFor(this.batchId),
      positions,
    });
  }

  /** The hosted batch id: known, or learned from the ONE submission all item runs of this batch share. */
  private async submitted(client: RemoteClient, signal: AbortSignal): Promise<string> {
    const row = (await this.deps.batches.get(this.batchId))!;
    if (row.rejected_code) throw new JobError(hostedCode(row.rejected_code), `hosted service: ${row.last_error ?? 'the batch was refused'}`);
    if (row.remote_batch_id) return row.remote_batch_id;
    const waiting = this.capacityWait();
    if (waiting) throw new JobError(waiting.code, waiting.message);
    this.submitting ??= this.submit(client).finally(() => {
      this.submitting = undefined;
    });
    return raceAbort(this.submitting, signal);
  }

  private async submit(client: RemoteClient): Promise<string> {
    const row = (await this.deps.batches.get(this.batchId))!;
    const byPosition = new Map((await this.localItems()).map((i) => [i.position, i]));
    const chosen = (JSON.parse(row.positions_json) as number[]).map((p) => byPosition.get(p)!);
    const submission: RemoteBatchSubmission = {
      product: this.product,
      model: row.remote_model_id,
      params: await this.deps.batches.params(this.batchId),
      items: chosen.map((i) => ({
        name: i.name,
        ...(i.input.text !== undefined ? { text: i.input.text } : {}),
        ...(i.input.description !== undefined ? { description: i.input.description } : {}),
        ...(i.input.filePath ? { filePath: i.input.filePath, fileName: i.input.fileName ?? i.name ?? 'audio' } : {}),
      })),
      ...(chosen[0]?.input.referencePath ? { referencePath: chosen[0].input.referencePath } : {}),
      ...(chosen[0]?.input.referenceText !== undefined ? { referenceText: chosen[0].input.referenceText } : {}),
    };
    const batch = await this.withServerRetry('submit the batch', async () => {
      await this.deps.batches.recordSubmission(this.batchId);
      return client.submitBatch(submission, row.idempotency_key);
    }).catch(async (error: unknown) => {
      if (error instanceof RemoteError && error.status === 429) throw await this.backOff(error);
      if (error instanceof RemoteError && error.kind === 'rejected') await this.deps.batches.recordRejected(this.batchId, error.code, error.message);
      else if (error instanceof RemoteError) await this.deps.batches.recordError(this.batchId, error.message);
      throw error;
    });
    this.capacity = undefined;
    this.deps.crashPoint?.(CRASH_AFTER_BATCH_SUBMIT);
    await this.deps.batches.recordRemoteBatch(this.batchId, batch.id, batch.status);
    this.latest = batch;
    this.deps.log.info(`${this.batchId}: forwarded as hosted batch ${batch.id} (${chosen.length} items)`);
    return batch.id;
  }

  private async backOff(error: RemoteError): Promise<JobError> {
    const delay = this.capacity ? Math.min(this.deps.options.capacityMaxMs, this.capacity.delay * 2) : this.deps.options.capacityInitialMs;
    const message = `The hosted account has no room for another batch (${error.message}); the batch waits here and is sent again in ${Math.ceil(delay / 1000)} s.`;
    this.capacity = { retryAt: Date.now() + delay, delay, message };
    await this.deps.batches.recordError(this.batchId, error.message);
    this.deps.log.info(`${this.batchId}: ${message}`);
    return new JobError('waiting_for_capacity', message, { cause: error });
  }

  /** Resolves with the item's hosted entry once it is terminal; the shared poller follows the batch meanwhile. */
  private awaitItem(client: RemoteClient, remoteBatchId: string, index: number, ctx: RemoteRunContext): Promise<BatchFile> {
    const known = this.latest?.id === remoteBatchId ? this.latest.files[index] : undefined;
    if (known && isTerminal(known.status as Parameters<typeof isTerminal>[0])) return Promise.resolve(known);
    return new Promise<BatchFile>((resolve, reject) => {
      if (ctx.signal.aborted) return reject(ctx.signal.reason);
      const onAbort = (): void => {
        this.waiters.delete(waiter);
        reject(ctx.signal.reason);
      };
      const waiter: Waiter = {
        index,
        ctx,
        resolve: (file) => {
          ctx.signal.removeEventListener('abort', onAbort);
          resolve(file);
        },
        reject: (error) => {
          ctx.signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.add(waiter);
      this.poll(client, remoteBatchId);
    });
  }

  private poll(client: RemoteClient, remoteBatchId: string): void {
    if (this.polling) return;
    this.polling = true;
    void this.pollLoop(client, remoteBatchId)
      .catch((error: unknown) => {
        // A bug must not leave item runs waiting forever: they fail (remote_failed) and the engine settles them.
        for (const waiter of [...this.waiters]) {
          this.waiters.delete(waiter);
          waiter.reject(error);
        }
      })
      .finally(() => {
        this.polling = false;
        if (this.waiters.size > 0) this.poll(client, remoteBatchId);
        else if (this.latest?.status === 'complete') this.onDone();
      });
  }

  private async pollLoop(client: RemoteClient, remoteBatchId: string): Promise<void> {
    const { batchPollInitialMs, pollMaxMs, pollFactor } = this.deps.options;
    let delay = batchPollInitialMs;
    for (let first = true; this.waiters.size > 0; first = false) {
      if (!first) await sleep(delay, this.stopped, { unref: true });
      if (this.waiters.size === 0) return; // every run left during the pause (cancel, shutdown)
      let batch: Batch;
      try {
        batch = await this.withServerRetry('poll the hosted batch', () => client.getBatch(this.product, remoteBatchId));
        if (!Array.isArray(batch?.files)) throw new RemoteError('server', 'invalid_batch', `the hosted answer for batch ${remoteBatchId} has no files list`, 200);
      } catch (error) {
        const failure =
          error instanceof RemoteError && error.status === 404
            ? new RemoteError('server', 'batch_vanished', `the hosted batch ${remoteBatchId} no longer exists`, 404, { cause: error })
            : error;
        for (const waiter of [...this.waiters]) {
          this.waiters.delete(waiter);
          waiter.reject(failure);
        }
        return;
      }
      const changed = fingerprint(batch) !== fingerprint(this.latest);
      this.latest = batch;
      await this.deps.batches.recordStatus(this.batchId, batch.status);
      for (const waiter of [...this.waiters]) {
        const file = batch.files[waiter.index];
        if (!file) {
          this.waiters.delete(waiter);
          waiter.reject(new RemoteError('server', 'invalid_batch', `the hosted batch ${remoteBatchId} has no item ${waiter.index}`, 200));
        } else if (isTerminal(file.status as Parameters<typeof isTerminal>[0])) {
          this.waiters.delete(waiter);
          waiter.resolve(file);
        } else if (typeof file.progress === 'number' && file.progress >= 0 && file.progress <= 1) {
          waiter.ctx.progress(file.progress);
        }
      }
      delay = changed ? batchPollInitialMs : Math.min(pollMaxMs, delay * pollFactor);
    }
  }

  /** One call shared by the batch's item runs, retried on a hosted 500 (server-retry.ts); stop() ends the wait. */
  private withServerRetry<T>(what: string, call: () => Promise<T>): Promise<T> {
    return withServerRetry(
      {
        options: this.deps.options,
        connectivity: this.deps.connectivity,
        signal: this.stopped,
        onRetry: async (error, delay) => {
          await this.deps.batches.recordError(this.batchId, error.message);
          this.deps.log.info(`${this.batchId}: could not ${what}: ${error.message}; retrying in ${delay} ms`);
        },
      },
      call,
    );
  }
}

/** Without the batch-cancel route: each open hosted item is cancelled alone; answers the batch as it was. */
async function cancelItems(client: RemoteClient, product: Product, remoteBatchId: string): Promise<Batch> {
  const batch = await client.getBatch(product, remoteBatchId);
  for (const file of batch.files) {
    if (file.job_id && !isTerminal(file.status as Parameters<typeof isTerminal>[0])) await client.cancelJob(product, file.job_id);
  }
  return batch;
}

function fingerprint(batch: Batch | undefined): string {
  return batch ? batch.files.map((f) => `${f.status}/${f.progress}`).join(',') : '';
}

/** The shared promise, or the caller's abort (the submission goes on for the other items). */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
