/** Job and batch-item statuses (spec "States and transitions") and the explicit table of allowed transitions. */

export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled', 'expired'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** A batch item is `pending` before its job is queued (e.g. a hosted batch not yet submitted). */
export type ItemStatus = 'pending' | JobStatus;

export const TERMINAL_STATUSES: readonly JobStatus[] = ['succeeded', 'failed', 'cancelled', 'expired'];

/**
 * Allowed transitions. `running → queued` is the requeue of work interrupted by a crash, a shutdown or a
 * worker restart (retried once where safe); nothing leaves a terminal status.
 */
export const JOB_TRANSITIONS: Readonly<Record<JobStatus, readonly JobStatus[]>> = {
  queued: ['running', 'cancelled', 'expired', 'failed'],
  running: ['succeeded', 'failed', 'cancelled', 'expired', 'queued'],
  succeeded: [],
  failed: [],
  cancelled: [],
  expired: [],
};

export function isTerminal(status: JobStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

export function canTransition(from: JobStatus, to: JobStatus): boolean {
  return JOB_TRANSITIONS[from].includes(to);
}

export type BatchStatus = 'open' | 'complete';

/** Batch counts (spec): failed counts failed, cancelled and expired; remaining counts pending, queued, running. */
export function countItems(statuses: readonly ItemStatus[]): { succeeded: number; failed: number; remaining: number } {
  let succeeded = 0;
  let failed = 0;
  let remaining = 0;
  for (const s of statuses) {
    if (s === 'succeeded') succeeded++;
    else if (s === 'failed' || s === 'cancelled' || s === 'expired') failed++;
    else remaining++;
  }
  return { succeeded, failed, remaining };
}
