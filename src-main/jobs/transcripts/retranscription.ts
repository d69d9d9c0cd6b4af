/**
 * Re-transcribing a range of a finished transcript (issue 29.2, docs/transcripts.md): `POST /v1/speech-to-text/{id}/
 * retranscribe {start, end, model, params}` runs that stretch of the recording again, as a job of its own, and the
 * result replaces those segments as a new revision of the transcript (the old revisions stay).
 *
 * The range job is an ordinary transcription of its own copy of the recording (a hard link in the uploads) with
 * `input.range` (the worker cuts the range out before the engine runs, engines/audio/range-cut.ts): it is queued,
 * priced, charged, checkpointed and resumed after a crash like any other, for the range's length. When it succeeds,
 * applyRetranscription — in the transaction that marks it succeeded — makes the new revision of the transcript it
 * came from, through the one rule of edits (transcript-edit.ts replaceRange).
 */
import { refuseUnknownFields } from '../../common/unknown-fields.js';
import { ApiError } from '../../common/errors.js';
import type { RevisionSegment } from '../../common/transcript-types.js';
import type { AudioRange, EngineInput } from '../../engines/engine-types.js';
import type { JobRow } from '../../store/jobs-repo.js';
import type { StoreRepos } from '../../store/store.js';
import { replaceRange } from './transcript-edit.js';
import type { RevisionBody } from './transcript-original.js';
import { reindexSegments, searchRows } from './transcripts-search-index.js';
import type { Log } from '../../common/log.js';

/** What a person asks for: seconds into the recording, a model, and its params. */
export interface RetranscribeRequest {
  start: number;
  end: number;
  model: string;
  params: Record<string, unknown>;
}

/** The range snapped to segment edges: the segments it covers are first … last (indexes of the latest revision). */
export interface SnappedRange extends AudioRange {
  first: number;
  last: number;
}

const FIELDS = ['start', 'end', 'model', 'params'] as const;
/** Tries when another edit lands between reading the latest revision and writing the next (another node). */
const APPLY_TRIES = 3;

const bad = (message: string): ApiError => new ApiError('invalid_request', message);
const round3 = (seconds: number): number => Math.round(seconds * 1000) / 1000;

function seconds(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw bad(`${field} must be a number of seconds into the recording (0 or more)`);
  }
  return value;
}

/** The body of a retranscribe request, checked: 400 naming the field (unsupported_param for an unknown one). */
export function parseRetranscribeRequest(body: Record<string, unknown>): RetranscribeRequest {
  refuseUnknownFields(body, FIELDS, '', 'a retranscription');
  const start = seconds(body.start, 'start');
  const end = seconds(body.end, 'end');
  if (end <= start) throw bad(`end (${end}) must be after start (${start})`);
  if (body.model === undefined || body.model === null || body.model === '') {
    throw new ApiError('model_required', 'model is required: the catalogue id of the recognizer to run the range with (GET /v1/models)');
  }
  if (typeof body.model !== 'string') throw bad('model must be a catalogue id (a string)');
  const params = body.params ?? {};
  if (params === null || typeof params !== 'object' || Array.isArray(params)) throw bad('params must be an object (the model\'s params, as for POST /v1/speech-to-text)');
  return { start, end, model: body.model, params: params as Record<string, unknown> };
}

/**
 * Boundaries snap outward to segment edges: the range becomes the first segment it touches from its start to the
 * last one it touches to its end. A range touching no segment with words is 400: there is nothing to replace.
 */
export function snapRange(segments: readonly RevisionSegment[], start: number, end: number): SnappedRange {
  const touched = segments.filter((s) => s.end > start && s.start < end && s.end > s.start);
  if (touched.length === 0) {
    const last = segments.at(-1);
    throw bad(`no segment lies between ${start} and ${end} s${last ? ` (the transcript runs from ${segments[0]!.start} to ${last.end} s)` : ' (the transcript has no segments)'}; choose a range over its text`);
  }
  const first = touched[0]!;
  const last = touched.at(-1)!;
  return { start: round3(first.start), end: round3(last.end), first: first.index, last: last.index };
}

/** The input of the range job: its own copy of the recording, the range, and the transcript it goes back to. */
export function rangeInput(filePath: string, fileName: string, range: AudioRange, sourceJobId: string): EngineInput {
  return { filePath, fileName, range: { start: range.start, end: range.end }, retranscribes: sourceJobId };
}

function inputOf(job: JobRow): EngineInput {
  try {
    return JSON.parse(job.input_json) as EngineInput;
  } catch {
    return {};
  }
}

const shifted = (s: RevisionSegment, by: number): RevisionSegment => ({
  ...s,
  start: round3(s.start + by),
  end: round3(s.end + by),
  words: s.words.map((w) => ({ ...w, start: round3(w.start + by), end: round3(w.end + by) })),
});

/**
 * Inside the transaction that marks a range job succeeded, after its own revision 0 is recorded: the transcript it
 * came from gets a new revision with the range replaced by what the range job recognised, and its search rows from
 * the first changed segment on are rewritten. Answers the source job's id when a revision was made (the caller
 * marks it changed), null for any other job or when the source is gone (deleted from history meanwhile).
 */
export async function applyRetranscription(repos: StoreRepos, done: JobRow, at: string, log: Log): Promise<string | null> {
  const input = inputOf(done);
  if (!input.retranscribes || !input.range) return null;
  const source = await repos.jobs.getWithoutResult(input.retranscribes);
  const own = await repos.revisions.latest(done.id);
  if (!source || source.status !== 'succeeded' || !own) {
    log.info(`job engine: ${done.id} re-transcribed a range of ${input.retranscribes}, which has no transcript any more; its result stays on the job`);
    return null;
  }
  const replacement = (JSON.parse(own.segments_json) as RevisionSegment[]).map((s) => shifted(s, input.range!.start));
  for (let attempt = 0; attempt < APPLY_TRIES; attempt++) {
    const base = await repos.revisions.latest(source.id);
    if (!base) return null;
    const before: RevisionBody = { speakers: JSON.parse(base.speakers_json) as RevisionBody['speakers'], segments: JSON.parse(base.segments_json) as RevisionSegment[] };
    const { body, firstChanged } = replaceRange(before, input.range, replacement);
    const inserted = await repos.revisions.insertNext({
      job_id: source.id,
      revision: base.revision + 1,
      speakers_json: JSON.stringify(body.speakers),
      segments_json: JSON.stringify(body.segments),
      created_at: at,
    });
    if (!inserted) continue;
    const count = Math.max(before.segments.length, body.segments.length);
    const indexes = Array.from({ length: count - firstChanged }, (_, i) => firstChanged + i);
    await reindexSegments(repos, source.id, indexes, searchRows(source, body.segments.slice(firstChanged)));
    return source.id;
  }
  log.info(`job engine: ${done.id}: the transcript of ${source.id} kept changing; the re-transcribed range was not applied (its result stays on the job)`);
  return null;
}
