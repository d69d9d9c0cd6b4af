/**
 * The transcript workbench over the store (docs/transcripts.md): revisions of a succeeded transcription (read,
 * edit with compare-and-set), the library search index kept in step with them, and the latest revision in the
 * shape the exports take. Only succeeded speech-to-text jobs have a transcript: another account's job, another
 * product's or an unknown id is 404 not_found; a job not succeeded (yet) is 409 conflict, as the export route answers.
 */
import type { AiActionName } from '../../common/ai-types.js';
import type { JobResult } from '../../common/api-types.js';
import { ApiError } from '../../common/errors.js';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_QUERY_CHARS, MAX_SEARCH_TERMS } from '../../common/limits.js';
import type { SearchHit, SearchList, TranscriptPatch, TranscriptRevision } from '../../common/transcript-types.js';
import { isoAt, type Clock } from '../../store/clock.js';
import { toFtsQuery } from '../../store/fts-query.js';
import type { JobRow } from '../../store/jobs-repo.js';
import type { Store, StoreRepos } from '../../store/store.js';
import type { RevisionRow } from '../../store/transcript-revisions-repo.js';
import { nameSpeaker, notSpeaker } from './speaker-library.js';
import { RevisionEditor } from './transcript-edit-work.js';
import type { ExportParts } from './transcript-export-parts.js';
import { highlight } from './transcript-snippet.js';
import { matchInSegment, segmentReader } from './search-word-times.js';
import { originalRevision } from './transcript-original.js';
import { catchUpSearchIndex, jobName, reindexSegments, searchRows } from './transcripts-search-index.js';
import { noJobOnRoute } from '../../common/error-messages.js';

/**
 * The most matching segments a search ranks. bm25 costs 15–75 µs a row on the development machine (more when a
 * query word is very common), so 400 keep a ranked page within about 20 ms. A query matching more — words said in
 * most recordings — is too common for rank to mean much: its hits come most recently indexed first instead, as
 * fast as any other (docs/transcripts.md).
 */
export const MAX_RANKED_MATCHES = 400;

export interface Transcripts {
  /** A revision (null: the latest) of the account's succeeded transcription. */
  get(accountId: string, jobId: string, revision: number | null): Promise<RevisionJson>;
  /** Makes revision base_revision + 1; 409 conflict when base_revision is no longer the latest. */
  edit(accountId: string, jobId: string, patch: TranscriptPatch): Promise<RevisionJson>;
  /** Library search over the account's latest revisions, job names and AI actions' answers. */
  search(accountId: string, q: string | undefined, limit: number | undefined, cursor: string | undefined): Promise<SearchList>;
  /** The job and its latest revision as stored, for an export (exportResult makes the JobResult every format reads). */
  forExport(accountId: string, jobId: string): Promise<{ job: JobRow; name: string | null; parts: ExportParts }>;
  /** Stops the edit thread (when the service closes). */
  close(): Promise<void>;
}

/**
 * A revision as the API answers it (a TranscriptRevision), already as JSON text: made from the stored texts of its
 * speakers and segments without parsing them — a long transcript's are megabytes, and parsing them only to
 * serialise them again held up every other request.
 */
export interface RevisionJson {
  revision: number;
  json: string;
}

/**
 * Revision 0 from the job's result (and segment rows), inside the caller's write transaction; its search rows are
 * written later with other jobs' (transcripts-search-index.ts). Does nothing when the job has a revision already.
 */
export async function recordOriginal(repos: StoreRepos, job: JobRow, result: JobResult | null, at: string): Promise<void> {
  // insertNext stores revision 0 only when the job has none (a compare-and-set in the INSERT): no read first.
  const body = originalRevision(result, await repos.segments.all(job.id));
  const inserted = await repos.revisions.insertNext({
    job_id: job.id,
    revision: 0,
    speakers_json: JSON.stringify(body.speakers),
    segments_json: JSON.stringify(body.segments),
    created_at: at,
  });
  if (inserted) await repos.search.markPending(job.id);
}

/** The engine's result; null when there is none or it cannot be read (then revision 0 comes from the segment rows). */
function engineResult(job: JobRow): JobResult | null {
  try {
    return job.result_json ? (JSON.parse(job.result_json) as JobResult) : null;
  } catch {
    return null;
  }
}

/** Records revision 0 for up to `limit` succeeded transcriptions that have none (they predate revisions); how many. */
export async function backfillOriginals(store: Store, at: string, limit: number): Promise<number> {
  const ids = await store.repos.revisions.withoutRevision(limit);
  if (ids.length === 0) return 0;
  await store.tx(async ({ repos }) => {
    for (const id of ids) {
      const job = await repos.jobs.get(id);
      if (job) await recordOriginal(repos, job, engineResult(job), at);
    }
  });
  return ids.length;
}

function revisionJson(row: RevisionRow, latest: number): RevisionJson {
  const head: Omit<TranscriptRevision, 'speakers' | 'segments'> = { job_id: row.job_id, revision: row.revision, latest_revision: latest, created_at: row.created_at };
  const json = `${JSON.stringify(head).slice(0, -1)},"speakers":${row.speakers_json},"segments":${row.segments_json}}`;
  return { revision: row.revision, json };
}

/**
 * Where the next page starts, as the opaque `next_cursor` (base64url): how many hits came before it, and the newest
 * index row when the search began. Later pages look at those rows only, so jobs finished (or segments edited) while
 * a person pages through results do not shift the pages; a fresh search sees them.
 */
interface SearchCursor {
  offset: number;
  maxId: number;
}

function encodeCursor(cursor: SearchCursor): string {
  return Buffer.from(JSON.stringify([cursor.offset, cursor.maxId])).toString('base64url');
}

function decodeCursor(text: string): SearchCursor {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    value = null;
  }
  if (Array.isArray(value) && value.length === 2 && value.every((n) => Number.isSafeInteger(n) && (n as number) >= 0)) {
    return { offset: value[0] as number, maxId: value[1] as number };
  }
  throw new ApiError('invalid_request', 'cursor is not one a search answered (pass next_cursor back unchanged)');
}

/**
 * What an edit tells the account's speaker library (speaker-library.ts): each speaker it names keeps its voice under
 * that name, each "not X" keeps the voice as one X must not match.
 */
async function updateSpeakerLibrary(repos: StoreRepos, accountId: string, jobId: string, speakersJson: string, patch: TranscriptPatch, at: string): Promise<void> {
  if (!patch.not_speakers?.length && !patch.speakers) return;
  const before = JSON.parse(speakersJson) as Record<string, string>;
  for (const key of patch.not_speakers ?? []) await notSpeaker(repos, accountId, jobId, key, before[key]!, at);
  for (const [key, name] of Object.entries(patch.speakers ?? {})) if (name !== null && name !== before[key]) await nameSpeaker(repos, accountId, jobId, key, name, at);
}

export function createTranscripts(store: Store, clock: Clock): Transcripts {
  const { repos } = store;
  const editor = new RevisionEditor();
  /** The account's succeeded transcription, with revision 0 recorded if it has none yet. */
  async function transcription(accountId: string, jobId: string): Promise<JobRow> {
    const job = await repos.jobs.getWithoutResult(jobId);
    if (!job || job.account_id !== accountId || job.product !== 'speech-to-text') {
      throw new ApiError('not_found', noJobOnRoute(jobId));
    }
    if (job.status !== 'succeeded') {
      throw new ApiError('conflict', `job ${jobId} is ${job.status}; only a succeeded transcription has a transcript`);
    }
    if ((await repos.revisions.latestNumber(jobId)) === null) {
      // Only for jobs that predate revisions (or were written without one): their whole result is read this once.
      const whole = (await repos.jobs.get(jobId)) ?? job;
      await store.tx((tx) => recordOriginal(tx.repos, job, engineResult(whole), isoAt(clock)));
    }
    return job;
  }

  async function latestRow(jobId: string): Promise<RevisionRow> {
    const row = await repos.revisions.latest(jobId);
    if (!row) throw new Error(`job ${jobId} has no revision after recording its original`);
    return row;
  }

  return {
    async get(accountId, jobId, revision) {
      await transcription(accountId, jobId);
      const latest = await latestRow(jobId);
      if (revision === null) return revisionJson(latest, latest.revision);
      const row = await repos.revisions.get(jobId, revision);
      if (!row) throw new ApiError('not_found', `job ${jobId} has no revision ${revision}; its revisions are 0–${latest.revision}`);
      return revisionJson(row, latest.revision);
    },

    /**
     * The work of an edit grows with the transcript, so it is done apart (transcript-edit-work.ts: on the edit thread
     * when large) with other requests served meanwhile, and only the write is one transaction: the insert is a
     * compare-and-set on the revision number, so an edit made meanwhile is still a 409.
     */
    async edit(accountId, jobId, patch) {
      const job = await transcription(accountId, jobId);
      const base = await latestRow(jobId);
      if (base.revision !== patch.base_revision) {
        throw new ApiError('conflict', `the transcript changed: base_revision is ${patch.base_revision} but the latest revision is ${base.revision}; read it again and redo the edit`);
      }
      const after = await editor.edit(accountId, { speakersJson: base.speakers_json, segmentsJson: base.segments_json, patch });
      const row: RevisionRow = {
        job_id: jobId,
        revision: base.revision + 1,
        speakers_json: after.speakersJson,
        segments_json: after.segmentsJson,
        created_at: isoAt(clock),
      };
      await store.tx(async ({ repos: inTx }) => {
        if (!(await inTx.revisions.insertNext(row))) {
          throw new ApiError('conflict', `the transcript changed while this edit was saved (revision ${row.revision} exists); read it again and redo the edit`);
        }
        await updateSpeakerLibrary(inTx, accountId, jobId, base.speakers_json, patch, row.created_at);
        await reindexSegments(inTx, jobId, after.changed.map((s) => s.index), searchRows(job, after.changed));
      });
      // The revision as just made, not read back from what was stored.
      return revisionJson(row, row.revision);
    },

    async search(accountId, q, limit = DEFAULT_SEARCH_LIMIT, cursor) {
      const text = q?.trim() ?? '';
      if (text === '') throw new ApiError('invalid_request', 'q is required: the words to look for');
      if (text.length > MAX_SEARCH_QUERY_CHARS) throw new ApiError('invalid_request', `q is longer than ${MAX_SEARCH_QUERY_CHARS} characters`);
      const query = toFtsQuery(text);
      if (query.terms > MAX_SEARCH_TERMS) throw new ApiError('invalid_request', `q holds ${query.terms} words; a search takes at most ${MAX_SEARCH_TERMS}`);
      // Transcripts finished before this search are found: their rows are written now if they were still pending.
      await catchUpSearchIndex(store);
      const at = cursor === undefined || cursor === '' ? { offset: 0, maxId: await repos.search.maxRowId() } : decodeCursor(cursor);
      if (query.match === null) return { object: 'list', data: [], next_cursor: null };
      const ranked = (await repos.search.countMatches(query.match, at.maxId, MAX_RANKED_MATCHES + 1)) <= MAX_RANKED_MATCHES;
      const rows = ranked
        ? await repos.search.search(accountId, query.match, at.maxId, at.offset, limit + 1)
        : await repos.search.searchNewest(accountId, query.match, at.maxId, at.offset, limit + 1);
      const page = rows.slice(0, limit);
      const segmentOf = segmentReader(repos);
      const data: SearchHit[] = [];
      for (const row of page) {
        const segment = row.segment_idx !== null && row.ai_job_id === null ? await segmentOf(row.job_id, row.segment_idx) : null;
        data.push({
          job_id: row.job_id,
          name: row.job_name,
          segment_index: row.segment_idx,
          start: row.start_seconds,
          end: row.end_seconds,
          snippet: highlight(row.body, query.phrases),
          match: segment ? matchInSegment(segment, query.phrases) : null,
          ai: row.ai_job_id === null ? null : { job_id: row.ai_job_id, action: row.ai_action as AiActionName },
        });
      }
      return { object: 'list', data, next_cursor: rows.length > limit ? encodeCursor({ offset: at.offset + limit, maxId: at.maxId }) : null };
    },

    async forExport(accountId, jobId) {
      const job = await transcription(accountId, jobId);
      const latest = await latestRow(jobId);
      return { job, name: jobName(job), parts: { speakersJson: latest.speakers_json, segmentsJson: latest.segments_json, engine: await repos.jobs.resultFacts(jobId) } };
    },

    close: () => editor.close(),
  };
}
