/**
 * Start-up recovery of interrupted jobs, and the periodic maintenance: expiry, artifact retention, recording
 * retention, job-history retention (retention-policy.ts, read at every sweep) and key purge.
 */
import { dirname, join, relative, isAbsolute } from 'node:path';
import { rmdirSync, unlinkSync } from 'node:fs';
import type { EngineInput } from '../engines/engine-types.js';
import { isoAt } from '../store/clock.js';
import { ownerAlive } from './instance.js';
import { nowIso, type JobCore } from './job-core.js';
import { createHistorySweep } from './history-sweep.js';
import { storedRetention } from './retention-policy.js';

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

  /** Files of the uploads folder only: a job's input could in principle name any path, and those are not ours. */
  function uploadedFiles(inputJson: string): string[] {
    const uploads = join(core.options.dataDir, 'uploads');
    const input = JSON.parse(inputJson) as EngineInput;
    return [input.filePath, input.referencePath].filter((path): path is string => {
      if (!path) return false;
      const inside = relative(uploads, path);
      return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside);
    });
  }

  function sweepUploads(): void {
    const hours = storedRetention(repos.settings).recordings_hours;
    const seconds = hours === undefined ? core.options.uploadRetentionSeconds : hours * 3600;
    const before = isoAt(core.options.clock, -seconds * 1000);
    for (const row of repos.jobs.inputsToPurge(before, 500)) {
      let kept = false;
      for (const path of uploadedFiles(row.input_json)) {
        try {
          unlinkSync(path);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') kept = true; // try again next sweep
        }
        try {
          rmdirSync(dirname(path)); // a batch's files share one folder: removed with its last file
        } catch {
          // other files of the request remain
        }
      }
      if (!kept) repos.jobs.markInputPurged(row.id, now());
    }
  }

  const sweepHistory = createHistorySweep(core, uploadedFiles);

  function runMaintenance(): void {
    machine.tx(() => expireOverdue());
    sweepArtifacts();
    sweepUploads();
    const days = storedRetention(repos.settings).job_history_days;
    if (days) sweepHistory(isoAt(core.options.clock, -days * 86_400_000));
    repos.idempotency.purgeExpired(now());
  }

  return { recoverInterrupted, runMaintenance };
}
