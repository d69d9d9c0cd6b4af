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
import { mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Artifact, Job } from '../../common/api-types.js';
import { JobError, type WaitingCode } from '../../common/errors.js';
import { isTerminal } from '../../common/job-states.js';
import { BATCH_PRODUCTS, type Product } from '../../common/products.js';
import type { RemoteBatchesRepo } from '../../store/remote-batches-repo.js';
import type { RemoteJobsRepo } from '../../store/remote-jobs-repo.js';
import type { ArtifactFile, EngineInput, EngineOutput } from '../engine-types.js';
import { sleep } from './abortable-sleep.js';
import type { Connectivity } from './connectivity.js';
import { RemoteClient, type RemoteEndpoint, type RemoteSubmission } from './remote-client.js';
import { RemoteError } from './remote-errors.js';
import { BatchForwarder } from './remote-batch-forwarder.js';
import { remoteModelId } from './remote-models.js';
import { idempotencyKeyFor, type RemoteOptions } from './remote-options.js';

/** What the runner needs of a local job. */
export interface RemoteTask {
  jobId: string;
  product: Product;
  /** Local catalogue id (`remote:<hosted id>`). */
  modelId: string;
  /** From the definition's engineConfig; falls back to the id without its prefix. */
  remoteModelId?: string;
  name: string | null;
  params: Record<string, unknown>;
  input: EngineInput;
  /** Directory owned by the job: downloaded artifacts go here. */
  workDir: string;
}

/** The job engine's callbacks for a running job (its RunnerContext). */
export interface RemoteRunContext {
  /** Aborted on cancel and on shutdown; remote_jobs/jobs tell the two apart (cancel_requested). */
  signal: AbortSignal;
  progress(fraction: number): void;
  measured(seconds: number): void;
  log(message: string): void;
}

export interface RemoteRunnerDeps {
  endpoint(): RemoteEndpoint | undefined;
  jobs: RemoteJobsRepo;
  batches: RemoteBatchesRepo;
  connectivity: Connectivity;
  options: RemoteOptions;
  /** Diagnostics of the provider (the job engine's ctx.log may drop them). */
  log(message: string): void;
  /** Test hook (VOXDESK_TEST_CRASH_POINT): called at named points; the serve process kills itself there. */
  crashPoint?: (name: string) => void;
}

/** Named point where a crash test kills the process: after the hosted job exists, before its id is recorded. */
export const CRASH_AFTER_SUBMIT = 'remote-after-submit';
/** Named point: after the hosted batch exists, before its id is recorded. */
export const CRASH_AFTER_BATCH_SUBMIT = 'remote-batch-after-submit';

export class RemoteRunner {
  private readonly batches: BatchForwarder;

  constructor(private readonly deps: RemoteRunnerDeps) {
    this.batches = new BatchForwarder(deps);
  }

  /** Items of a local batch wait (`waiting_for_capacity`) while the hosted account has no room for their batch. */
  batchReadiness(batchId: string): { code: WaitingCode; message: string } | null {
    return this.batches.readiness(batchId);
  }

  /** See BatchForwarder.cancelOrphans; a no-op without a configured key. */
  async cancelOrphanBatches(): Promise<void> {
    const key = this.deps.endpoint()?.key;
    if (key) await this.batches.cancelOrphans(key);
  }

  async run(task: RemoteTask, ctx: RemoteRunContext): Promise<EngineOutput> {
    const current = this.deps.endpoint();
    if (!current) throw new JobError('model_unavailable', 'no hosted service is configured (Settings → hosted service URL)');
    if (!current.key) throw new JobError('model_unavailable', 'no API key is set for the hosted service (Settings)');
    const hostedModel = task.remoteModelId ?? remoteModelId(task.modelId) ?? task.modelId;
    const item = this.deps.batches.itemOf(task.jobId);
    // An item already forwarded alone (before batches were forwarded whole) keeps following its own hosted job.
    const alone = this.deps.jobs.get(task.jobId)?.idempotency_key === idempotencyKeyFor(task.jobId);
    if (item && BATCH_PRODUCTS.includes(task.product) && !alone) {
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
    this.deps.jobs.ensure({
      jobId: task.jobId,
      endpointUrl: current.url,
      product: task.product,
      remoteModelId: hostedModel,
      idempotencyKey: idempotencyKeyFor(task.jobId),
    });
    this.deps.jobs.retarget(task.jobId, current.url);
    const row = this.deps.jobs.get(task.jobId)!;
    const client = new RemoteClient({ url: row.endpoint_url, key: current.key }, this.deps.options);
    const local = this.deps.jobs.localJob(task.jobId);
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
      if (this.deps.jobs.localJob(task.jobId)?.cancelRequested) await cancelRemote();
      throw new JobError('cancelled', 'cancelled');
    }
    if (error instanceof RemoteError) {
      this.deps.jobs.recordError(task.jobId, error.message);
      if (error.kind === 'network') {
        this.deps.connectivity.unreachable(error.message);
        throw new JobError('waiting_for_network', `The hosted service cannot be reached: ${error.message}`, { cause: error });
      }
      // A hosted job that vanished (404 while following it) is a hosted failure, not a local "not found".
      const vanished = error.status === 404 && this.deps.jobs.get(task.jobId)?.remote_job_id;
      const code = error.kind === 'rejected' && !vanished ? error.code : 'remote_failed';
      throw new JobError(code, `hosted service: ${error.message}`, { cause: error });
    }
    throw error;
  }
}

/** The state of one forwarded run: the hosted job id once known and what was posted (for a replay). */
export class Follower {
  private remoteId: string | null = null;
  /** Set once a POST was sent: what to replay to learn the hosted id when a cancel comes during the hold. */
  private sent: { submission: RemoteSubmission; idempotencyKey: string } | null = null;

  constructor(
    private readonly client: RemoteClient,
    private readonly task: RemoteTask,
    private readonly ctx: RemoteRunContext,
    private readonly deps: RemoteRunnerDeps,
  ) {}

  async submit(hostedModel: string, idempotencyKey: string): Promise<Job> {
    const submission: RemoteSubmission = {
      product: this.task.product,
      model: hostedModel,
      params: this.task.params,
      name: this.task.name,
      text: this.task.input.text,
      filePath: this.task.input.filePath,
      fileName: this.task.input.fileName,
      referencePath: this.task.input.referencePath,
    };
    const job = await this.withRetry('submit the job', (s) => {
      this.sent = { submission, idempotencyKey };
      this.deps.jobs.recordSubmission(this.task.jobId);
      return this.client.submit(submission, idempotencyKey, s);
    });
    this.deps.crashPoint?.(CRASH_AFTER_SUBMIT);
    this.deps.jobs.recordRemoteJob(this.task.jobId, job.id, job.status);
    this.remoteId = job.id;
    this.note(`forwarded to ${this.client.endpoint.url} as ${job.id}`);
    return job;
  }

  /** The hosted job is known (a batch item): a cancel goes to it. */
  adopt(remoteId: string): void {
    this.remoteId = remoteId;
  }

  async untilTerminal(first: Job): Promise<Job> {
    let job = first;
    this.remoteId = job.id;
    let delay = this.deps.options.pollInitialMs;
    this.mirror(job);
    while (!isTerminal(job.status)) {
      await sleep(delay, this.ctx.signal);
      const before = `${job.status}/${job.progress}/${job.duration_seconds}`;
      job = await this.withRetry('poll the hosted job', (s) => this.client.getJob(this.task.product, job.id, s));
      this.deps.jobs.recordStatus(this.task.jobId, job.status);
      this.mirror(job);
      const changed = before !== `${job.status}/${job.progress}/${job.duration_seconds}`;
      delay = changed ? this.deps.options.pollInitialMs : Math.min(this.deps.options.pollMaxMs, delay * this.deps.options.pollFactor);
    }
    this.deps.jobs.recordStatus(this.task.jobId, job.status);
    return job;
  }

  async finish(job: Job): Promise<EngineOutput> {
    if (job.status !== 'succeeded') {
      const code = job.status === 'failed' ? (job.error_code ?? 'remote_failed') : (job.error_code ?? job.status);
      throw new JobError(code, job.error_message ?? `the hosted job ${job.id} ended ${job.status}`);
    }
    const { artifacts: remoteArtifacts, ...result } = job.result ?? {};
    const artifacts: ArtifactFile[] = [];
    if (remoteArtifacts?.length) {
      await mkdir(this.task.workDir, { recursive: true });
      for (const [index, artifact] of remoteArtifacts.entries()) artifacts.push(await this.download(artifact, index));
    }
    return { result, artifacts, durationSeconds: seconds(job.duration_seconds) ?? 0 };
  }

  /**
   * Best effort: the local job is cancelled either way. While a POST is held the hosted id is unknown (the spec
   * gives it only in the answer), so the POST is replayed in the background with the same Idempotency-Key — the
   * hosted side answers with the existing job when it ends or its hold window does — and cancelled if still open.
   */
  async cancelRemote(): Promise<void> {
    const { product } = this.task;
    if (this.remoteId) {
      await this.client.cancelJob(product, this.remoteId).catch((error: unknown) => this.cancelFailed(error));
      return;
    }
    const sent = this.sent;
    if (!sent) return;
    void this.client
      .submit(sent.submission, sent.idempotencyKey)
      .then(async (job) => {
        this.deps.jobs.recordRemoteJob(this.task.jobId, job.id, job.status);
        if (!isTerminal(job.status)) await this.client.cancelJob(product, job.id);
      })
      .catch((error: unknown) => this.cancelFailed(error));
  }

  private note(message: string): void {
    this.ctx.log(message);
    this.deps.log(`${this.task.jobId}: ${message}`);
  }

  private cancelFailed(error: unknown): void {
    this.note(`cancel of the hosted job for ${this.task.jobId} failed: ${(error as Error).message}`);
  }

  /**
   * One call to the hosted service; a 500 is retried a few times with backoff. Network failures are thrown at once
   * (the run ends waiting_for_network), rejections too (the job fails with the hosted code).
   */
  async withRetry<T>(what: string, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const { offlineInitialMs, offlineMaxMs, serverErrorRetries } = this.deps.options;
    let delay = offlineInitialMs;
    for (let serverErrors = 0; ; serverErrors++) {
      try {
        const value = await call(this.ctx.signal);
        this.deps.connectivity.ok();
        return value;
      } catch (error) {
        if (this.ctx.signal.aborted || !(error instanceof RemoteError) || error.kind !== 'server' || serverErrors >= serverErrorRetries) {
          if (error instanceof RemoteError && error.kind !== 'network') this.deps.connectivity.ok();
          throw error;
        }
        this.deps.jobs.recordError(this.task.jobId, error.message);
        this.note(`could not ${what}: ${error.message}; retrying in ${delay} ms`);
        await sleep(delay, this.ctx.signal);
        delay = Math.min(offlineMaxMs, delay * 2);
      }
    }
  }

  mirror(job: Job): void {
    const measured = seconds(job.duration_seconds);
    if (measured !== null) this.ctx.measured(measured);
    if (typeof job.progress === 'number' && job.progress >= 0 && job.progress <= 1) this.ctx.progress(job.progress);
  }

  private async download(artifact: Artifact, index: number): Promise<ArtifactFile> {
    const url = new URL(artifact.url, `${this.client.endpoint.url}/`).href;
    const path = join(this.task.workDir, artifactFileName(url, index));
    await this.withRetry('download an artifact', (s) => this.client.download(url, path, s));
    return {
      path,
      contentType: artifact.content_type || 'application/octet-stream',
      durationSeconds: seconds(artifact.duration_seconds),
      sampleRate: typeof artifact.sample_rate === 'number' ? artifact.sample_rate : null,
      channels: typeof artifact.channels === 'number' ? artifact.channels : null,
    };
  }
}

function seconds(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const n = typeof value === 'number' ? value : Number.parseFloat(value);
  return Number.isFinite(n) && n >= 0 ? n : null;
}

/** The hosted link's last path segment, made safe for a file name, prefixed by its position (names may repeat). */
function artifactFileName(url: string, index: number): string {
  let name = 'artifact';
  try {
    name = decodeURIComponent(basename(new URL(url).pathname)) || name;
  } catch {
    // A malformed escape: keep the generic name.
  }
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '').slice(0, 100) || 'artifact';
  return index === 0 ? safe : `${index}-${safe}`;
}
