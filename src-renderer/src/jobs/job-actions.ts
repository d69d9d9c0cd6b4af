/**
 * Pause and resume a transcription (POST /v1/speech-to-text/{id}/pause|resume), shared by the Transcribe and Jobs
 * tabs: the answer is merged into the polled lists at once, and a refused action is told in plain words.
 */
import type { Job } from '$common/api-types.js';
import { errorText } from '../shared/error-messages.js';
import type { ServiceHost } from '../shared/service/service-host.js';

/** A transcription that is queued or running and not paused: it can be paused. */
export function canPause(job: Job | undefined): boolean {
  return !!job && job.product === 'speech-to-text' && (job.status === 'running' || (job.status === 'queued' && job.error_code !== 'paused'));
}

export function isPaused(job: Job | undefined): boolean {
  return !!job && job.status === 'queued' && job.error_code === 'paused';
}

export async function pauseOrResume(host: ServiceHost, job: Job, action: 'pause' | 'resume'): Promise<void> {
  try {
    host.upsertJob(action === 'pause' ? await host.api.pauseJob(job.id) : await host.api.resumeJob(job.id));
    host.refreshSoon();
  } catch (err) {
    host.toast(errorText(err), 'error');
  }
}
