/**
 * What the OpenAI-compatible routes share about their jobs: every call is an ordinary durable job (Jobs tab, ledger,
 * Idempotency-Key), and OpenAI's clients expect the answer itself, not a job. So the request waits until the job is
 * terminal — with no hold window, as long as the client stays — and a failed job becomes the HTTP error OpenAI would
 * give for that cause. The job's id travels in the `x-voxdesk-job-id` header.
 */
import type { Context } from 'hono';
import type { Job } from '../../common/api-types.js';
import { ApiError } from '../../common/errors.js';
import { isTerminal } from '../../common/job-states.js';
import type { Product } from '../../common/products.js';
import type { AppDeps } from '../app-deps.js';

/** Response header naming the job behind an answer. */
export const JOB_ID_HEADER = 'x-voxdesk-job-id';
/** How often a waiting request re-reads its job (a safety net: job-changed events normally wake it). */
const WAIT_SLICE_MS = 60_000;

/**
 * Waits until the job is terminal. Resolves null when the client went away; throws when the service shuts down
 * (the job itself is requeued and finishes after the restart).
 */
export async function awaitJob(c: Context, deps: AppDeps, accountId: string, product: Product, job: Job): Promise<Job | null> {
  let current = job;
  const signal = AbortSignal.any([c.req.raw.signal, deps.closing]);
  while (!isTerminal(current.status)) {
    if (c.req.raw.signal.aborted) return null;
    if (deps.closing.aborted) {
      throw new ApiError('internal_error', `the service is shutting down; job ${job.id} finishes after it starts again (GET /v1/${product}/${job.id})`);
    }
    await deps.jobs.waitForTerminal(current.id, WAIT_SLICE_MS, signal);
    current = (await deps.jobs.getJob(accountId, product, current.id)) ?? current;
  }
  return current;
}

/** A job that did not succeed, as the error OpenAI's clients expect for that cause. */
export function jobFailure(job: Job): ApiError {
  const detail = `job ${job.id}: ${job.error_message ?? job.error_code ?? job.status}`;
  switch (job.status === 'failed' ? job.error_code : job.status) {
    case 'audio_decode_failed':
      return new ApiError('invalid_request', `the file could not be read as audio (${detail})`, { param: 'file' });
    case 'invalid_params':
    case 'text_required':
    case 'text_too_long':
      return new ApiError('invalid_params', detail);
    case 'audio_too_long':
      return new ApiError('audio_too_long', detail, { param: 'file' });
    case 'model_unavailable':
      return new ApiError('model_unavailable', detail, { param: 'model' });
    case 'remote_failed':
    case 'remote_rejected':
      return new ApiError('upstream_unavailable', detail);
    case 'cancelled':
    case 'expired':
      return new ApiError('conflict', `the job was ${job.status} before it finished (${detail})`);
    default:
      return new ApiError('internal_error', `the engine failed (${detail})`);
  }
}
