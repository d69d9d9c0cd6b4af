/**
 * How a run's end is written (job-executor.ts runs it): the engine's files kept with the job, and the one transaction
 * that settles the job — succeeded with its artifacts, charge and transcript revisions, or failed, cancelled or queued
 * again, by what the error says.
 */
import { copyFile, rename, rm, stat } from 'node:fs/promises';
import { basename, isAbsolute, join, relative } from 'node:path';
import { JobError, PAUSED, WAITING_CODES } from '../../common/errors.js';
import { durationString } from '../../common/duration.js';
import type { EngineOutput } from '../../engines/engine-types.js';
import type { ModelDefinition } from '../../engines/model-definition.js';
import { WorkerCrashError } from '../../engines/worker/worker-pool.js';
import { isoAt } from '../../store/clock.js';
import { newId, newToken } from '../../store/ids.js';
import type { JobRow } from '../../store/jobs-repo.js';
import { chargeJob, storedSnapshot } from '../money/billing.js';
import { rowsFromResult, transcriptFromRows } from '../transcripts/transcript-segments.js';
import { applyRetranscription } from '../transcripts/retranscription.js';
import { recordOriginal } from '../transcripts/transcripts.js';
import { applyVocabulary } from '../transcripts/vocabulary-revision.js';
import { keepRecordingVoices } from '../transcripts/speaker-library.js';
import { CANCELLED_MESSAGE, nowIso, type ActiveRun, type JobCore } from './job-core.js';
import { PAUSED_MESSAGE } from './job-pause.js';
import type { JobTx } from './state-machine.js';

/** A worker crash is retried once: a job whose run crashed with attempts ≥ this fails `engine_crashed`. */
export const MAX_CRASH_ATTEMPTS = 2;

/** An artifact file kept in the job's folder (and in storage: `stored` is the row's name for it). */
export interface KeptArtifact {
  path: string;
  stored: string;
  bytes: number;
  file: EngineOutput['artifacts'][number];
}

/** Files the engine wrote elsewhere are moved into the job's folder so retention can find them. */
export async function collectArtifacts(core: JobCore, output: EngineOutput, workDir: string): Promise<KeptArtifact[]> {
  const files = [];
  for (const file of output.artifacts) {
    let path = file.path;
    const rel = relative(workDir, path);
    if (rel.startsWith('..') || isAbsolute(rel)) {
      const target = join(workDir, basename(path));
      try {
        await rename(path, target);
      } catch {
        await copyFile(path, target);
        await rm(path, { force: true });
      }
      path = target;
    }
    files.push({ path, stored: await core.options.files.keep(path), bytes: (await stat(path)).size, file });
  }
  return files;
}

/**
 * A run that ended with the engine's output: succeeded in one transaction with its artifacts, its charge and its
 * transcript's revisions — or cancelled (asked meanwhile), or queued again (segments it sent are missing).
 */
export async function settleSucceeded(core: JobCore, tx: JobTx, row: JobRow, output: EngineOutput, definition: ModelDefinition, files: readonly KeptArtifact[]): Promise<void> {
  const { repos } = tx;
  const { clock } = core.options;
  const options = core.options;
  const jobId = row.id;
  if (row.cancel_requested) {
    await tx.transition(row, 'cancelled', { error_code: 'cancelled', error_message: CANCELLED_MESSAGE });
    return;
  }
  const at = nowIso(core);
  let result: EngineOutput['result'] = output.result ?? {};
  // Revision 0 of the transcript (transcripts.ts) keeps words and speakers whatever response_format asked for.
  let original: EngineOutput['result'] | null = row.product === 'speech-to-text' ? result : null;
  if (output.transcript) {
    const rows = await repos.segments.all(jobId);
    if (rows.length !== output.transcript.segmentCount) {
      // Segments the engine sent are missing (a commit failed): run again from the last one committed.
      core.options.log.info(`job engine: ${jobId} finished with ${rows.length} of ${output.transcript.segmentCount} segments committed; resuming it`);
      await tx.transition(row, 'queued', { attempts: Math.max(0, row.attempts - 1) });
      return;
    }
    result = transcriptFromRows(rows, output.transcript);
    const detailed = { ...output.transcript.options, responseFormat: 'verbose_json' as const, granularity: 'word' as const };
    original = transcriptFromRows(rows, { ...output.transcript, options: detailed });
  } else if (row.product === 'speech-to-text' && (await repos.segments.count(jobId)) === 0) {
    for (const segment of rowsFromResult(jobId, result, at)) await repos.segments.append(segment);
  }
  for (const { path, stored, bytes, file } of files) {
    await repos.artifacts.insert({
      id: newId('art', clock().getTime()),
      job_id: jobId,
      token: newToken(),
      file_name: basename(path),
      path: stored,
      content_type: file.contentType,
      bytes,
      duration_seconds: file.durationSeconds === null ? null : durationString(file.durationSeconds),
      sample_rate: file.sampleRate,
      channels: file.channels,
      created_at: at,
      expires_at: isoAt(clock, options.artifactTtlSeconds * 1000),
      deleted_at: null,
    });
  }
  // Billed from the value the job shows (3 decimals), so the bill can be recomputed from duration_seconds.
  const shown = durationString(output.durationSeconds);
  const done = await tx.transition(row, 'succeeded', {
    result_json: JSON.stringify(result),
    duration_seconds: shown,
  });
  // Charged at the price recorded when the job was accepted (jobs of earlier builds: the catalogue's price now).
  await chargeJob(repos.ledger, done, storedSnapshot(done.price_json, () => definition), Number(shown), at);
  if (original) await recordOriginal(repos, done, original, at);
  // Each diarized speaker's voice stays with the recording: naming one keeps it in the speaker library.
  if (output.transcript?.voices?.length) await keepRecordingVoices(repos, jobId, output.transcript.voices);
  // The account's replacements as revision 1 (vocabulary-revision.ts), before a range goes back into its source.
  if (original) await applyVocabulary(repos, done, at);
  // A re-transcribed range goes back into the transcript it came from as a new revision (retranscription.ts).
  const source = original ? await applyRetranscription(repos, done, at, core.options.log) : null;
  if (source) tx.touch(source, null);
}

/**
 * A run that ended with an error: cancelled, queued again (a pause, a broken checkpoint, a crash retried, a waiting
 * code — a run that was not the job's fault does not count as an attempt) or failed with the right code.
 */
export async function settleFailed(tx: JobTx, row: JobRow, run: ActiveRun, error: unknown): Promise<void> {
  const code = error instanceof JobError ? String(error.code) : null;
  // A job asked to pause waits in the queue with its checkpoint instead of whatever else it would have done.
  const paused = row.pause_requested ? { error_code: PAUSED, error_message: PAUSED_MESSAGE } : {};
  // Not the job's fault: the run does not count as an attempt.
  const requeue = async (patch: Parameters<JobTx['transition']>[2] = {}): Promise<void> =>
    void (await tx.transition(row, 'queued', { attempts: Math.max(0, row.attempts - 1), ...patch, ...paused }));
  if (row.cancel_requested) {
    await tx.transition(row, 'cancelled', { error_code: 'cancelled', error_message: CANCELLED_MESSAGE });
  } else if (run.checkpointBroken) {
    await requeue(); // stopped because a segment could not be committed: continue from the last one that was
  } else if (code === 'cancelled' && (run.pausing || row.pause_requested)) {
    await requeue(); // paused (or resumed again before the run stopped: then it is simply next in line)
  } else if (code === 'cancelled') {
    await tx.transition(row, 'cancelled', { error_code: 'cancelled', error_message: CANCELLED_MESSAGE });
  } else if (error instanceof WorkerCrashError) {
    if (row.attempts < MAX_CRASH_ATTEMPTS) await tx.transition(row, 'queued', paused);
    else await tx.transition(row, 'failed', { error_code: 'engine_crashed', error_message: `The engine crashed: ${error.message} (attempt ${row.attempts}).` });
  } else if (code && (WAITING_CODES as readonly string[]).includes(code)) {
    await requeue({ error_code: code, error_message: (error as Error).message });
  } else if (error instanceof JobError) {
    await tx.transition(row, 'failed', { error_code: String(error.code), error_message: error.message });
  } else {
    const message = error instanceof Error ? error.message : String(error);
    await tx.transition(row, 'failed', { error_code: run.remote ? 'remote_failed' : 'engine_failed', error_message: message });
  }
}
