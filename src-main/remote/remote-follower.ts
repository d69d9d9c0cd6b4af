/**
 * Follows one forwarded job on the hosted service: submits it (or adopts a batch item's hosted job), polls it until
 * it is terminal with backoff, mirrors progress and duration, downloads its artifacts into the job's workDir and
 * passes the hosted outcome on; cancels the hosted job on a local cancel. Used by RemoteRunner for a job forwarded
 * alone and by the BatchCoordinator for each item of a hosted batch.
 */
import { mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Artifact, Job } from '../common/api-types.js';
import { hostedCode, JobError } from '../common/errors.js';
import { isTerminal } from '../common/job-states.js';
import type { ArtifactFile, EngineOutput } from '../engines/engine-types.js';
import { PRIVATE_DIR_MODE } from '../store/private-files.js';
import { sleep } from './abortable-sleep.js';
import { hostedArtifactType, hostedArtifactUrl } from './hosted-artifact.js';
import type { RemoteClient, RemoteSubmission } from './remote-client.js';
import { CRASH_AFTER_SUBMIT, type RemoteRunContext, type RemoteRunnerDeps, type RemoteTask } from './remote-run-types.js';
import { withServerRetry } from './server-retry.js';

/** The state of one forwarded run: the hosted job id once known and what was posted (for a replay). */
export class Follower {
  private remoteId: string | null = null;
  /** Set once a POST was sent: what to replay to learn the hosted id when a cancel comes during the hold. */
  private sent: { submission: RemoteSubmission; idempotencyKey: string } | null = null;
  /** The hosted status last stored in remote_jobs by this follower (submit), so an unchanged one is not written again. */
  private recorded: string | null = null;

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
      ...(this.task.input.referenceText !== undefined ? { referenceText: this.task.input.referenceText } : {}),
    };
    const job = await this.withRetry('submit the job', async (s) => {
      this.sent = { submission, idempotencyKey };
      await this.deps.jobs.recordSubmission(this.task.jobId);
      return this.client.submit(submission, idempotencyKey, s);
    });
    this.deps.crashPoint?.(CRASH_AFTER_SUBMIT);
    await this.deps.jobs.recordRemoteJob(this.task.jobId, job.id, job.status);
    this.recorded = job.status;
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
    // The usual case: the hosted POST held until the job succeeded. finish() hands over its duration and result, and
    // the job engine commits them with the success in one transaction; mirroring progress and duration first would
    // write (and announce) the local job twice more for nothing. The status was stored with the hosted id.
    if (job.status === 'succeeded' && this.recorded === job.status) return job;
    let delay = this.deps.options.pollInitialMs;
    this.mirror(job);
    while (!isTerminal(job.status)) {
      await sleep(delay, this.ctx.signal);
      const before = `${job.status}/${job.progress}/${job.duration_seconds}`;
      job = await this.withRetry('poll the hosted job', (s) => this.client.getJob(this.task.product, job.id, s));
      await this.deps.jobs.recordStatus(this.task.jobId, job.status);
      this.mirror(job);
      const changed = before !== `${job.status}/${job.progress}/${job.duration_seconds}`;
      delay = changed ? this.deps.options.pollInitialMs : Math.min(this.deps.options.pollMaxMs, delay * this.deps.options.pollFactor);
    }
    await this.deps.jobs.recordStatus(this.task.jobId, job.status);
    return job;
  }

  async finish(job: Job): Promise<EngineOutput> {
    if (job.status !== 'succeeded') {
      const own = job.status === 'failed' ? 'remote_failed' : job.status === 'cancelled' ? 'cancelled' : 'expired';
      const code = job.error_code ? hostedCode(job.error_code) : own;
      throw new JobError(code, job.error_message ?? `the hosted job ${job.id} ended ${job.status}`);
    }
    const { artifacts: remoteArtifacts, ...result } = job.result ?? {};
    const artifacts: ArtifactFile[] = [];
    if (remoteArtifacts?.length) {
      // Made (and emptied of an earlier attempt) by the job engine during the hosted call: usually ready by now.
      await (this.task.workDirReady ?? mkdir(this.task.workDir, { recursive: true, mode: PRIVATE_DIR_MODE }));
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
        await this.deps.jobs.recordRemoteJob(this.task.jobId, job.id, job.status);
        if (!isTerminal(job.status)) await this.client.cancelJob(product, job.id);
      })
      .catch((error: unknown) => this.cancelFailed(error));
  }

  private note(message: string): void {
    this.ctx.log.info(message);
    this.deps.log.info(`${this.task.jobId}: ${message}`);
  }

  private cancelFailed(error: unknown): void {
    this.note(`cancel of the hosted job for ${this.task.jobId} failed: ${(error as Error).message}`);
  }

  /** One call to the hosted service, retried on a hosted 500 (server-retry.ts); the job's cancel ends the wait. */
  withRetry<T>(what: string, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
    return withServerRetry(
      {
        options: this.deps.options,
        connectivity: this.deps.connectivity,
        signal: this.ctx.signal,
        onRetry: async (error, delay) => {
          await this.deps.jobs.recordError(this.task.jobId, error.message);
          this.note(`could not ${what}: ${error.message}; retrying in ${delay} ms`);
        },
      },
      call,
    );
  }

  mirror(job: Job): void {
    const measured = seconds(job.duration_seconds);
    if (measured !== null) this.ctx.measured(measured);
    if (typeof job.progress === 'number' && job.progress >= 0 && job.progress <= 1) this.ctx.progress(job.progress);
  }

  /** Downloads one hosted artifact into the job's folder: only from the hosted origin, size-capped, typed here. */
  private async download(artifact: Artifact, index: number): Promise<ArtifactFile> {
    const url = hostedArtifactUrl(artifact.url, this.client.endpoint.url);
    const path = join(this.task.workDir, artifactFileName(url, index));
    const { head } = await this.withRetry('download an artifact', (s) => this.client.download(url, path, this.deps.options.maxArtifactBytes, s));
    return {
      path,
      contentType: hostedArtifactType(artifact.content_type, head),
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
