/** Start-up recovery of interrupted jobs, and the periodic maintenance: expiry, artifact retention, key purge. */
import { dirname } from 'node:path';
import { rmdirSync, unlinkSync } from 'node:fs';
import { ownerAlive } from './instance.js';
import { nowIso, type JobCore } from './job-core.js';

/** A job interrupted by service crashes this many times fails `interrupted` instead of being requeued again. */
export const MAX_RECOVERY_ATTEMPTS = 5;

export interface Maintenance {
  recoverInterrupted(): void;
  runMaintenance(): void;
}

export function createMaintenance(core: JobCore, expireOverdue: () => void): Maintenance {
  const { repos, machine } = core;
  const now = (): string => nowIso(core);

  function recoverInterrupted(): void {
    machine.tx(() => {
      for (const row of repos.jobs.running()) {
        if (ownerAlive(row.claimed_by)) continue;
        if (row.attempts >= MAX_RECOVERY_ATTEMPTS) {
          machine.transition(row, 'failed', { error_code: 'interrupted', error_message: `The job was interrupted ${row.attempts} times (the service stopped while it ran).` });
        } else {
          machine.transition(row, 'queued');
        }
      }
    });
  }

  function sweepArtifacts(): void {
    for (const artifact of repos.artifacts.expired(now())) {
      try {
        unlinkSync(artifact.path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') continue; // try again next sweep
      }
      repos.artifacts.markDeleted(artifact.id, now());
      try {
        rmdirSync(dirname(artifact.path)); // only succeeds once the job's folder is empty
      } catch {
        // other artifacts of the job remain
      }
    }
  }

  function runMaintenance(): void {
    machine.tx(() => expireOverdue());
    sweepArtifacts();
    repos.idempotency.purgeExpired(now());
  }

  return { recoverInterrupted, runMaintenance };
}
