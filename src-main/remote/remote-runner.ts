/**
 * Runs one local job on the hosted service: submit (with an Idempotency-Key derived from the local job id, the
 * remote_jobs row written first), follow the hosted job until it is terminal (the POST hold, then GET polling
 * with backoff), mirror progress and duration, download artifacts into the job's workDir before the hosted links
 * expire, and pass the hosted error_code through. When the hosted service cannot be reached the run ends with
 * JobError `waiting_for_network`: the job engine puts the job back in the queue with that code, and the runner's
 * readiness keeps it there until the connectivity probe gets an answer; the next run resumes from remote_jobs
 * (follows the known hosted job, or posts again with the same Idempotency-Key). Items of a local batch go through
 * the BatchForwarder instead: the whole batch is ONE hosted batch (one request fee on each side).
 */
import { hostedCode, jobCancelled, JobError, WAITING_CODES, type WaitingCode } from '../common/errors.js';
import { BATCH_PRODUCTS } from '../common/products.js';
import type { EngineOutput } from '../engines/engine-types.js';
import type { HeldBatch, HoldOutcome } from '../jobs/engine/job-runner.js';
import { RemoteClient, type RemoteEndpoint } from './remote-client.js';
import { RemoteError } from './remote-errors.js';
import { BatchForwarder } from './remote-batch-forwarder.js';
import { Follower } from './remote-follower.js';
import { remoteModelId } from './remote-models.js';
import { idempotencyKeyFor } from './remote-options.js';
import type { RemoteRunContext, RemoteRunnerDeps, RemoteTask } from './remote-run-types.js';

export class RemoteRunner {
  private readonly batches: BatchForwarder;

  constructor(private readonly deps: RemoteRunnerDeps) {
    this.batches = new BatchForwarder(deps);
  }

  /** Items of a local batch wait (`waiting_for_capacity`) while the hosted account has no room for their batch. */
  batchReadiness(batchId: string): { code: WaitingCode; message: string } | null {
    return this.batches.readiness(batchId);
  }

  /** After the job engine stopped: ends the pauses of hosted batches still submitted or polled (BatchForwarder.stop). */
  stop(): void {
    this.batches.stop();
  }

  /** See BatchForwarder.cancelOrphans; a no-op without a configured key. */
  async cancelOrphanBatches(): Promise<void> {
    const key = this.deps.endpoint()?.key;
    if (key) await this.batches.cancelOrphans(key);
  }

  /**
   * Places a local batch whose items are pending as ONE hosted batch (the same submission, Idempotency-Key and
   * remote_batches row an item run would use): accepted once the hosted service has it; waiting while offline or
   * while the hosted account has no room (429, with backoff); refused with the hosted code when it rejects the batch
   * or no hosted service is configured.
   */
  async placeBatch(batch: HeldBatch, signal: AbortSignal): Promise<HoldOutcome> {
    const current = this.deps.endpoint();
    if (!current) return { kind: 'refused', code: 'model_unavailable', message: 'no hosted service is configured (Settings → hosted service URL)' };
    if (!current.key) return { kind: 'refused', code: 'model_unavailable', message: 'no API key is set for the hosted service (Settings)' };
    if (this.deps.connectivity.state().reachable === false) {
      return { kind: 'waiting', code: 'waiting_for_network', message: 'Waiting for the network to reach the hosted service.' };
    }
    const configured = batch.definition.engineConfig.remoteModelId;
    const hostedModel = typeof configured === 'string' ? configured : (remoteModelId(batch.definition.id) ?? batch.definition.id);
    const coordinator = this.batches.coordinator(batch.batchId, batch.product, hostedModel, current.url);
    try {
      await coordinator.place(current.key, signal);
      return { kind: 'accepted' };
    } catch (error) {
      if (signal.aborted) throw error;
      if (error instanceof JobError) {
        const code = String(error.code);
        return (WAITING_CODES as readonly string[]).includes(code)
          ? { kind: 'waiting', code: code as WaitingCode, message: error.message }
          : { kind: 'refused', code, message: error.message };
      }
      if (error instanceof RemoteError) {
        if (error.kind === 'network') {
          this.deps.connectivity.unreachable(error.message);
          return { kind: 'waiting', code: 'waiting_for_network', message: `The hosted service cannot be reached: ${error.message}` };
        }
        return { kind: 'refused', code: error.kind === 'rejected' ? error.code : 'remote_failed', message: `hosted service: ${error.message}` };
      }
      throw error;
    }
  }

  async run(task: RemoteTask, ctx: RemoteRunContext): Promise<EngineOutput> {
    const current = this.deps.endpoint();
    if (!current) throw new JobError('model_unavailable', 'no hosted service is configured (Settings → hosted service URL)');
    if (!current.key) throw new JobError('model_unavailable', 'no API key is set for the hosted service (Settings)');
    const hostedModel = task.remoteModelId ?? remoteModelId(task.modelId) ?? task.modelId;
    const item = await this.deps.batches.itemOf(task.jobId);
    // An item already forwarded alone (before batches were forwarded whole) keeps following its own hosted job.
    const alone = async (): Promise<boolean> => (await this.deps.jobs.get(task.jobId))?.idempotency_key === idempotencyKeyFor(task.jobId);
    if (item && BATCH_PRODUCTS.includes(task.product) && !(await alone())) {
      const coordinator = this.batches.coordinator(item.batchId, task.product, hostedModel, current.url);
      let follow: Follower | undefined;
      try {
        const output = await coordinator.runItem(task, item.position, ctx, current.key, (f) => (follow = f));
        if (output) return output;
      } catch (error) {
        return this.fail(task, ctx, error, () => coordinator.cancelRemote(item.position, current.key!, follow));
      }
    }
    return this.runAlone(task, ctx, hostedModel, current);
  }

  private async runAlone(task: RemoteTask, ctx: RemoteRunContext, hostedModel: string, current: RemoteEndpoint): Promise<EngineOutput> {
    let row = await this.deps.jobs.ensure({
      jobId: task.jobId,
      endpointUrl: current.url,
      product: task.product,
      remoteModelId: hostedModel,
      idempotencyKey: idempotencyKeyFor(task.jobId),
    });
    // Not yet submitted anywhere: follows the configured hosted service (a write only when that changed since).
    if (row.endpoint_url !== current.url && !row.remote_job_id) {
      await this.deps.jobs.retarget(task.jobId, current.url);
      row = (await this.deps.jobs.get(task.jobId))!;
    }
    const client = new RemoteClient({ url: row.endpoint_url, key: current.key }, this.deps.options);
    const local = await this.deps.jobs.localJob(task.jobId);
    const follow = new Follower(client, { ...task, name: task.name ?? local?.name ?? null }, ctx, this.deps);
    try {
      let job = row.remote_job_id
        ? await follow.withRetry('read the hosted job', (s) => client.getJob(task.product, row.remote_job_id!, s))
        : await follow.submit(hostedModel, row.idempotency_key);
      job = await follow.untilTerminal(job);
      return await follow.finish(job);
    } catch (error) {
      return this.fail(task, ctx, error, () => follow.cancelRemote());
    }
  }

  /** Turns a failed run into the JobError the job engine settles (cancel, waiting, hosted code, remote_failed). */
  private async fail(task: RemoteTask, ctx: RemoteRunContext, error: unknown, cancelRemote: () => Promise<void>): Promise<never> {
    if (ctx.signal.aborted) {
      // A shutdown also aborts: then the hosted job goes on and the next start follows it.
      if ((await this.deps.jobs.localJob(task.jobId))?.cancelRequested) await cancelRemote();
      throw jobCancelled();
    }
    if (error instanceof RemoteError) {
      await this.deps.jobs.recordError(task.jobId, error.message);
      if (error.kind === 'network') {
        this.deps.connectivity.unreachable(error.message);
        throw new JobError('waiting_for_network', `The hosted service cannot be reached: ${error.message}`, { cause: error });
      }
      // A hosted job that vanished (404 while following it) is a hosted failure, not a local "not found".
      const vanished = error.status === 404 && (await this.deps.jobs.get(task.jobId))?.remote_job_id;
      const code = error.kind === 'rejected' && !vanished ? hostedCode(error.code) : 'remote_failed';
      throw new JobError(code, `hosted service: ${error.message}`, { cause: error });
    }
    throw error;
  }
}
