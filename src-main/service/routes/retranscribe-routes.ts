/**
 * `POST /v1/speech-to-text/{id}/retranscribe {start, end, model, params}` (extension, docs/transcripts.md): a range of
 * a finished transcript run again with another model or settings. The range snaps to segment edges; the answer is
 * the new range job (held like any single POST), which on success makes a new revision of this transcript. The rules
 * live in jobs/transcripts/retranscription.ts; this file reads the request and gives the job its own copy of the
 * recording: a hard link in the account's uploads (no bytes copied; a copy where links are impossible), so recording
 * retention and history deletion of either job never take the other's recording.
 */
import { Hono, type Context } from 'hono';
import { randomUUID } from 'node:crypto';
import { copyFile, link, mkdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { ApiError } from '../../common/errors.js';
import type { RevisionSegment } from '../../common/transcript-types.js';
import { parseRetranscribeRequest, rangeInput, snapRange, type SnappedRange } from '../../jobs/transcripts/retranscription.js';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../app-env.js';
import { readJsonObject } from '../http/json-body.js';
import { holdJob, idempotencyOf, waitsForJob, requestedLanguage, resolveForProductFresh, validateParams } from './submission.js';
import { noJobOnRoute } from '../../common/error-messages.js';

const clock = (seconds: number): string => {
  const whole = Math.floor(seconds);
  const h = Math.floor(whole / 3600);
  const mm = String(Math.floor((whole % 3600) / 60)).padStart(h > 0 ? 2 : 1, '0');
  const ss = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
};

/** The range job's own hard link (or copy) of the recording, in a fresh folder of the account's uploads. */
async function linkRecording(deps: AppDeps, accountId: string, path: string, fileName: string): Promise<{ path: string; dir: string }> {
  const dir = join(deps.uploadsDir, accountId, `up_${randomUUID().replaceAll('-', '')}`);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const target = join(dir, basename(fileName) || 'recording');
  try {
    await link(path, target);
  } catch {
    await copyFile(path, target);
  }
  return { path: target, dir };
}

async function retranscribe(c: Context<AppEnv>, deps: AppDeps): Promise<Response> {
  const wait = waitsForJob(c);
  const { accountId } = c.get('owner');
  const jobId = c.req.param('jobId')!;
  const body = await readJsonObject(c);
  const request = parseRetranscribeRequest(body);
  // The transcript first: another account's or an unknown job is 404 and a job not succeeded 409, whatever the body.
  const latest = await deps.transcripts.get(accountId, jobId, null);
  // Only the segments' times are needed; a rare request, so the latest revision is parsed here (an edit is done on
  // the edit thread because it is frequent and writes the whole revision back).
  const transcript = JSON.parse(latest.json) as { segments: RevisionSegment[] };
  const def = await resolveForProductFresh(deps, request.model, 'speech-to-text');
  if (def.provider !== 'local') {
    throw new ApiError('invalid_params', `model ${def.id} runs on a hosted service; a range is re-transcribed on this device: choose an on-device model (GET /v1/models, provider "local")`);
  }
  const params = validateParams(deps, def, request.params);
  const range: SnappedRange = snapRange(transcript.segments, request.start, request.end);
  const recording = await deps.jobs.getRecording(accountId, jobId);
  if (!recording) throw new ApiError('not_found', noJobOnRoute(jobId));
  if (recording.kind === 'gone') throw new ApiError('recording_deleted', `${recording.message}, so no range of it can be re-transcribed`);
  if (recording.kind === 'none') throw new ApiError('conflict', `${recording.message}, so no range of it can be re-transcribed`);
  const source = await deps.jobs.getJob(accountId, 'speech-to-text', jobId);
  const copy = await linkRecording(deps, accountId, recording.path, recording.fileName);
  try {
    const { job, replayed } = await deps.jobs.createJob(
      {
        accountId,
        product: 'speech-to-text',
        modelId: def.id,
        name: `${source?.name ?? recording.fileName} (${clock(range.start)}–${clock(range.end)})`,
        language: requestedLanguage(request.params),
        params,
        input: rangeInput(copy.path, recording.fileName, range, jobId),
        estimatedSeconds: Math.round((range.end - range.start) * 1000) / 1000,
      },
      idempotencyOf(c, { job: jobId, ...body }),
    );
    if (replayed) await rm(copy.dir, { recursive: true, force: true });
    return c.json(await holdJob(c, deps, accountId, 'speech-to-text', job, wait));
  } catch (error) {
    await rm(copy.dir, { recursive: true, force: true });
    throw error;
  }
}

export function retranscribeRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post('/v1/speech-to-text/:jobId/retranscribe', (c) => retranscribe(c, deps));
  return app;
}
