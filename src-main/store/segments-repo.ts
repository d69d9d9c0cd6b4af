/**
 * Committed segments of speech-to-text jobs (migration 007): the checkpoints a job resumes after, the rows
 * `GET /v1/speech-to-text/{id}/segments` pages through, and what the finished transcript is built from. A job's
 * segments are appended in index order only (a stale or repeated segment is refused), so the rows of a job are always
 * 0 … n−1 with no gap.
 */
import type { Db } from './db.js';

export interface SegmentRow {
  job_id: string;
  idx: number;
  start_seconds: number;
  end_seconds: number;
  resume_seconds: number;
  text: string;
  /** JSON of TranscriptWord[]; null when the engine gives no word timings. */
  words_json: string | null;
  language: string | null;
  created_at: string;
  /**
   * JSON of the SegmentFlag[] the engine measured (`no_speech`; migration 030); absent or null when none. The flags
   * of the text (repetition and the like) are worked out from the text when the transcript is built.
   */
  flags_json?: string | null;
}

/** A row as read: no `flags_json` key when it holds none, as rows were before migration 030. */
export function withoutEmptyFlags<T extends SegmentRow | undefined>(row: T): T {
  if (row && (row.flags_json === null || row.flags_json === undefined)) delete row.flags_json;
  return row;
}

export interface SegmentsRepo {
  /** Appends the job's next segment (inside the caller's transaction); false when `idx` is not the next index. */
  append(row: SegmentRow): boolean;
  /** The last committed segment: where the job resumes. */
  last(jobId: string): SegmentRow | undefined;
  /** How many segments the job committed (= the next index). */
  count(jobId: string): number;
  all(jobId: string): SegmentRow[];
  /** Up to `limit` segments with an index above `afterIdx` (−1: from the first), in order. */
  page(jobId: string, afterIdx: number, limit: number): SegmentRow[];
  /** Whether any segment has an index above `afterIdx`. */
  hasAfter(jobId: string, afterIdx: number): boolean;
  /** Copies every segment of `fromJob` to `toJob` (a retry continues from the checkpoint); returns how many. */
  copy(fromJob: string, toJob: string, createdAt: string): number;
  /**
   * Where the run that started at `startedAt` resumed: the resume point of the last segment committed by then. Times
   * are ISO strings to the millisecond, and a retry's copied segments (or a crashed run's) and the claim that starts
   * the next run can share one (the claim follows at once on a quick machine), so "by then" includes that
   * millisecond. A segment of the run itself comes later: it needs the run to reach a worker and recognise audio.
   */
  resumedFrom(jobId: string, startedAt: string): number | null;
}

export function createSegmentsRepo(db: Db): SegmentsRepo {
  const append = db.prepare(`INSERT INTO job_segments (job_id, idx, start_seconds, end_seconds, resume_seconds, text,
      words_json, language, created_at, flags_json)
    SELECT @job_id, @idx, @start_seconds, @end_seconds, @resume_seconds, @text, @words_json, @language, @created_at, @flags_json
    WHERE COALESCE((SELECT MAX(idx) FROM job_segments WHERE job_id = @job_id), -1) + 1 = @idx`);
  const last = db.prepare<[string], SegmentRow>('SELECT * FROM job_segments WHERE job_id = ? ORDER BY idx DESC LIMIT 1');
  const count = db.prepare<[string], { n: number | null }>('SELECT MAX(idx) + 1 AS n FROM job_segments WHERE job_id = ?');
  const all = db.prepare<[string], SegmentRow>('SELECT * FROM job_segments WHERE job_id = ? ORDER BY idx');
  const page = db.prepare<[string, number, number], SegmentRow>('SELECT * FROM job_segments WHERE job_id = ? AND idx > ? ORDER BY idx LIMIT ?');
  const hasAfter = db.prepare<[string, number], { one: number }>('SELECT 1 AS one FROM job_segments WHERE job_id = ? AND idx > ? LIMIT 1');
  const copy = db.prepare<[string, string, string]>(`INSERT INTO job_segments (job_id, idx, start_seconds, end_seconds,
      resume_seconds, text, words_json, language, created_at, flags_json)
    SELECT ?, idx, start_seconds, end_seconds, resume_seconds, text, words_json, language, ?, flags_json FROM job_segments
    WHERE job_id = ? ORDER BY idx`);
  const resumedFrom = db.prepare<[string, string], { resume_seconds: number }>(
    'SELECT resume_seconds FROM job_segments WHERE job_id = ? AND created_at <= ? ORDER BY idx DESC LIMIT 1',
  );
  return {
    append: (row) => append.run({ ...row, flags_json: row.flags_json ?? null }).changes === 1,
    last: (jobId) => withoutEmptyFlags(last.get(jobId)),
    count: (jobId) => count.get(jobId)?.n ?? 0,
    all: (jobId) => all.all(jobId).map(withoutEmptyFlags),
    page: (jobId, afterIdx, limit) => page.all(jobId, afterIdx, limit).map(withoutEmptyFlags),
    hasAfter: (jobId, afterIdx) => hasAfter.get(jobId, afterIdx) !== undefined,
    copy: (fromJob, toJob, createdAt) => copy.run(toJob, createdAt, fromJob).changes,
    resumedFrom: (jobId, startedAt) => resumedFrom.get(jobId, startedAt)?.resume_seconds ?? null,
  };
}
