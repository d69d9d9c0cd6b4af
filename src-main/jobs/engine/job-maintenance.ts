/**
 * Recovery of interrupted jobs, and the periodic maintenance: expiry, artifact retention, recording retention,
 * job-history retention (retention-policy.ts, read at every sweep), key purge, and revision 0 for transcriptions
 * that succeeded before transcript revisions existed (so library search finds them too).
 *
 * A job is interrupted when the instance that claimed it stopped (quit, crash, kill -9, power loss, a node lost):
 * at start an instance takes back jobs claimed by a process of this machine that is gone (at once, so the desktop
 * app continues a transcription right after a crash), and every sweep takes back running jobs whose lease lapsed
 * (any node's: how a cluster survives the loss of a machine). Files are deleted off the service's thread.
 */
import { dirname, isAbsolute, join, relative } from 'node:path';
import type { EngineInput } from '../../engines/engine-types.js';
import { isoAt } from '../../store/clock.js';
import { PAUSED } from '../../common/errors.js';
import type { JobRow } from '../../store/jobs-repo.js';
import { removeIfEmpty } from '../../store/objects/stored-files.js';
import { createHistorySweep } from '../retention/history-sweep.js';
import { storedRetention } from '../retention/retention-policy.js';
import { backfillOriginals } from '../transcripts/transcripts.js';
import { catchUpSearchIndex } from '../transcripts/transcripts-search-index.js';
import { onThisMachine, ownerAlive } from './instance.js';
import { PAUSED_MESSAGE } from './job-pause.js';
import { nowIso, type JobCore } from './job-core.js';
import type { JobTx } from './state-machine.js';

/** Transcriptions given their revision 0 per maintenance pass (a few ms each), until none is left without one. */
export const ORIGINALS_PER_SWEEP = 200;

export interface Maintenance {
  /** At start: jobs left running by a process of this machine that is gone go back to the queue. */
  recoverInterrupted(): Promise<void>;
  /** Jobs whose lease lapsed go back to the queue (any node's); how many. */
  recoverLapsed(): Promise<number>;
  runMaintenance(): Promise<void>;
}

/** Leases recovered so far by this instance (the `/metrics` figure `voxdesk_lease_expiries_total`). */
export interface LeaseCounter {
  lapsed: number;
}

export function createMaintenance(core: JobCore, expireOverdue: (tx: JobTx) => Promise<void>, leases: LeaseCounter): Maintenance {
  const { store, machine } = core;
  const { files } = core.options;
  const now = (): string => nowIso(core);

  /**
   * Back to the queue: never the job's fault (engines run in their own processes), so the run does not count as an
   * attempt and no number of restarts fails a job; a transcription continues after its last committed segment. A
   * job that was being paused waits paused.
   */
  async function requeue(tx: JobTx, row: JobRow): Promise<void> {
    const paused = row.pause_requested ? { error_code: PAUSED, error_message: PAUSED_MESSAGE } : {};
    await tx.transition(row, 'queued', { attempts: Math.max(0, row.attempts - 1), ...paused });
  }

  async function recoverInterrupted(): Promise<void> {
    await machine.tx(async (tx) => {
      for (const row of await tx.repos.jobs.running()) {
        // Another machine's claim: its lease tells whether it is alive (recoverLapsed).
        if (row.claimed_by !== null && !onThisMachine(row.claimed_by)) continue;
        if (row.claimed_by === core.instanceId || ownerAlive(row.claimed_by)) continue;
        await requeue(tx, row);
      }
    });
  }

  async function recoverLapsed(): Promise<number> {
    return machine.tx(async (tx) => {
      let n = 0;
      for (const row of await tx.repos.jobs.lapsedLeases(now())) {
        if (row.claimed_by === core.instanceId && core.active.has(row.id)) continue; // ours, being renewed
        await requeue(tx, row);
        n += 1;
      }
      leases.lapsed += n;
      return n;
    });
  }

  async function sweepArtifacts(): Promise<void> {
    for (const artifact of await store.repos.artifacts.expired(now())) {
      try {
        await files.remove(artifact.path); // with a bucket: the object too
      } catch {
        continue; // try again next sweep
      }
      await store.repos.artifacts.markDeleted(artifact.id, now());
      await removeIfEmpty(dirname(files.pathOf(artifact.path))); // only succeeds once the job's folder is empty
    }
  }

  /**
   * Stored names of files in the uploads folder only: a job's input could in principle name any path, and those are
   * not ours.
   */
  function uploadedFiles(inputJson: string): string[] {
    const uploads = join(files.root, 'uploads');
    const input = JSON.parse(inputJson) as EngineInput;
    return [input.filePath, input.referencePath].filter((stored): stored is string => {
      if (!stored) return false;
      const inside = relative(uploads, files.pathOf(stored));
      return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside);
    });
  }

  async function sweepUploads(): Promise<void> {
    const hours = (await storedRetention(store.repos.settings)).recordings_hours;
    const seconds = hours === undefined ? core.options.uploadRetentionSeconds : hours === null ? null : hours * 3600;
    if (seconds === null) return; // kept as long as the job: the history sweep deletes it with the job
    const before = isoAt(core.options.clock, -seconds * 1000);
    for (const row of await store.repos.jobs.inputsToPurge(before, 500)) {
      let kept = false;
      for (const stored of uploadedFiles(row.input_json)) {
        try {
          await files.remove(stored);
        } catch {
          kept = true; // try again next sweep
        }
        await removeIfEmpty(dirname(files.pathOf(stored))); // a batch's files share one folder: removed with its last file
      }
      if (!kept) await store.repos.jobs.markInputPurged(row.id, now());
    }
  }

  const sweepHistory = createHistorySweep(core, uploadedFiles);

  async function runMaintenance(): Promise<void> {
    await recoverLapsed();
    await machine.tx((tx) => expireOverdue(tx));
    await sweepArtifacts();
    await sweepUploads();
    const days = (await storedRetention(store.repos.settings)).job_history_days;
    if (days) await sweepHistory(isoAt(core.options.clock, -days * 86_400_000));
    await store.repos.idempotency.purgeExpired(now());
    await backfillOriginals(store, now(), ORIGINALS_PER_SWEEP);
    await catchUpSearchIndex(store);
  }

  return { recoverInterrupted, recoverLapsed, runMaintenance };
}
