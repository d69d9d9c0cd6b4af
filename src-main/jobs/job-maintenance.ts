/**
 * Start-up recovery of interrupted jobs, and the periodic maintenance: expiry, artifact retention, recording
 * retention, job-history retention (retention-policy.ts, read at every sweep), key purge, and revision 0 for
 * transcriptions that succeeded before transcript revisions existed (so library search finds them too).
 */
import { dirname, join, relative, isAbsolute } from 'node:path';
import { rmdirSync, unlinkSync } from 'node:fs';
import type { EngineInput } from '../engines/engine-types.js';
import { isoAt } from '../store/clock.js';
import { PAUSED } from '../common/errors.js';
import { ownerAlive } from './instance.js';
import { PAUSED_MESSAGE } from './job-pause.js';
import { nowIso, type JobCore } from './job-core.js';
import { createHistorySweep } from './history-sweep.js';
import { storedRetention } from './retention-policy.js';
import { backfillOriginals } from './transcripts.js';
import { catchUpSearchIndex } from './transcripts-search-index.js';

/** Transcriptions given their revision 0 per maintenance pass (a few ms each), until none is left without one. */
export const ORIGINALS_PER_SWEEP = 200;

export interface Maintenance {
  recoverInterrupted(): void;
  runMaintenance(): void;
}

export function createMaintenance(core: JobCore, expireOverdue: () => void): Maintenance {
  const { repos, machine } = core;
  const now = (): string => nowIso(core);

  /**
   * Jobs left running by a service that stopped (quit, crash, kill -9, power loss) go back to the queue. That is never
   * the job's fault (engines run in their own processes), so the run does not count as an attempt and no number of
   * restarts fails a job; a transcription continues after its last committed segment. A job that was being paused
   * waits paused.
   */
  function recoverInterrupted(): void {
    machine.tx(() => {
      for (const row of repos.jobs.running()) {
        if (ownerAlive(row.claimed_by)) continue;
        const paused = row.pause_requested ? { error_code: PAUSED, error_message: PAUSED_MESSAGE } : {};
        machine.transition(row, 'queued', { attempts: Math.max(0, row.attempts - 1), ...paused });
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
    const seconds = hours === undefined ? core.options.uploadRetentionSeconds : hours === null ? null : hours * 3600;
    if (seconds === null) return; // kept as long as the job: the history sweep deletes it with the job
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
    backfillOriginals(repos, now(), ORIGINALS_PER_SWEEP);
    catchUpSearchIndex(repos);
  }

  return { recoverInterrupted, runMaintenance };
}
