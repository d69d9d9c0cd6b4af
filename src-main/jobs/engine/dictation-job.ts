/**
 * A live dictation session becomes a speech-to-text job when it ends (docs/engines-and-models.md, "Live speech to
 * text"): the transcript is already made, so the job is recorded as queued → running → succeeded in one transaction
 * through the state machine — it appears in Jobs like any transcription, exports the same way, and is charged like a
 * file of that length (request fee + audio minutes, at the price the catalogue shows) by the same billing code. The
 * session's recording becomes the job's audio artifact (a download link like any other, valid one day), kept in the
 * folder it was recorded in — the account's uploads, where it counts in what the account may keep — under the job's
 * id. Its finals
 * are committed as the job's segment rows in the same transaction, so `GET /v1/speech-to-text/{id}/segments` and the
 * transcript view read a dictation like any other transcription.
 */
import { rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Job } from '../../common/api-types.js';
import { ApiError } from '../../common/errors.js';
import { durationString } from '../../common/duration.js';
import { isoAt } from '../../store/clock.js';
import { newId, newToken } from '../../store/ids.js';
import { chargeJob } from '../money/billing.js';
import { nowIso, type JobCore } from './job-core.js';
import { liveSessionJobRow } from './job-rows.js';
import type { NewDictationJob } from './job-service-types.js';
import { splitIntoSentences } from '../transcripts/sentence-segments.js';
import { rowsFromResult } from '../transcripts/transcript-segments.js';
import { recordOriginal } from '../transcripts/transcripts.js';
import { keepRecordingVoices } from '../transcripts/speaker-library.js';
import { applyVocabulary } from '../transcripts/vocabulary-revision.js';

/** The name a dictation's job gets: "Dictation 2026-11-23 02:15 UTC" (when it ended). */
export function dictationJobName(at: Date): string {
  return `Dictation ${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** The file name of a dictation's recording (its artifact). */
export const DICTATION_RECORDING_NAME = 'dictation.wav';

export async function recordDictation(core: JobCore, input: NewDictationJob): Promise<Job> {
  const { store, machine, options } = core;
  // Its estimate is its charge: the length received.
  const { row, price } = await liveSessionJobRow(core, {
    accountId: input.accountId,
    modelId: input.modelId,
    name: input.name,
    language: input.language,
    params: input.params,
    input: input.recording ? { fileName: DICTATION_RECORDING_NAME } : {},
    estimatedSeconds: input.durationSeconds,
  });
  // The recording takes the job's name first (a file operation cannot be part of the transaction).
  // It is kept in storage (a bucket: put there) and the rows name it as storage does (stored-files.ts).
  let recording: { stored: string; bytes: number; sampleRate: number; channels: number } | null = null;
  if (input.recording) {
    const path = join(dirname(input.recording.path), `${row.id}.wav`);
    await rename(input.recording.path, path);
    const bytes = (await stat(path)).size;
    let stored: string;
    try {
      stored = await options.files.keep(path);
    } catch (error) {
      await rm(path, { force: true });
      throw new ApiError('upstream_unavailable', `the recording could not be stored in the storage bucket (${(error as Error).message})`, { cause: error });
    }
    recording = { stored, bytes, sampleRate: input.recording.sampleRate, channels: input.recording.channels ?? 1 };
    row.input_json = JSON.stringify({ filePath: stored, fileName: DICTATION_RECORDING_NAME });
  }
  const shown = durationString(input.durationSeconds);
  try {
    await machine.tx(async (tx) => {
      const { repos } = tx;
      await repos.jobs.insert(row);
      tx.touch(row.id, null);
      const running = await tx.transition(row, 'running');
      const at = nowIso(core);
      if (recording) {
        await repos.artifacts.insert({
          id: newId('art', options.clock().getTime()),
          job_id: row.id,
          token: newToken(),
          file_name: DICTATION_RECORDING_NAME,
          path: recording.stored,
          content_type: 'audio/wav',
          bytes: recording.bytes,
          duration_seconds: shown,
          sample_rate: recording.sampleRate,
          channels: recording.channels,
          created_at: at,
          expires_at: isoAt(options.clock, options.artifactTtlSeconds * 1000),
          deleted_at: null,
        });
      }
      for (const segment of rowsFromResult(row.id, input.result, at)) {
        if (!(await repos.segments.append(segment))) throw new Error(`segment ${segment.idx} of dictation ${row.id} is not the next one`);
      }
      // What people read is in sentences, as a file's transcript is (sentence-segments.ts); the rows keep the utterances.
      const result = splitIntoSentences(input.result);
      const done = await tx.transition(running, 'succeeded', { result_json: JSON.stringify(result), duration_seconds: shown });
      await chargeJob(repos.ledger, done, price, Number(shown), at);
      // Revision 0 now, as a file job gets it: the dictation (or meeting) is in library search at once.
      await recordOriginal(repos, done, result, at);
      // A meeting's diarized voices, so that naming one of its speakers teaches the speaker library.
      if (input.voices?.length) await keepRecordingVoices(repos, done.id, input.voices);
      await applyVocabulary(repos, done, at);
    });
  } catch (error) {
    if (recording) await options.files.remove(recording.stored).catch(() => undefined);
    throw error;
  }
  const written = await store.repos.jobs.get(row.id);
  if (!written) throw new Error(`job ${row.id} vanished`);
  return core.views.job(written);
}
