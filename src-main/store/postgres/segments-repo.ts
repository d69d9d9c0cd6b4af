/**
 * Committed segments of speech-to-text jobs on PostgreSQL, with the semantics of store/segments-repo.ts. `append`
 * inserts only the job's next index, checked in the INSERT itself, and does nothing on the primary key (job_id, idx):
 * two nodes appending the same segment (a lease that lapsed while its old holder still ran) store it once, and the
 * second is told false; an index past the next one is refused by the check. `copy` fills a job just created (the
 * retry's, in the transaction that inserts it), which no other node writes yet.
 */
import { withoutEmptyFlags, type SegmentRow, type SegmentsRepo } from '../segments-repo.js';
import type { Async } from '../store.js';
import type { Sql } from './sql.js';

const COLUMNS = 'job_id, idx, start_seconds, end_seconds, resume_seconds, text, words_json, language, created_at, flags_json';
const APPEND = `INSERT INTO job_segments (${COLUMNS})
  SELECT $1::text, $2::bigint, $3::double precision, $4::double precision, $5::double precision, $6::text, $7::text, $8::text, $9::text, $10::text
  WHERE COALESCE((SELECT MAX(idx) FROM job_segments WHERE job_id = $1::text), -1) + 1 = $2::bigint
  ON CONFLICT DO NOTHING`;
const LAST = `SELECT ${COLUMNS} FROM job_segments WHERE job_id = $1 ORDER BY idx DESC LIMIT 1`;
const COUNT = 'SELECT MAX(idx) + 1 AS n FROM job_segments WHERE job_id = $1';
const ALL = `SELECT ${COLUMNS} FROM job_segments WHERE job_id = $1 ORDER BY idx`;
const PAGE = `SELECT ${COLUMNS} FROM job_segments WHERE job_id = $1 AND idx > $2 ORDER BY idx LIMIT $3`;
const HAS_AFTER = 'SELECT 1 AS one FROM job_segments WHERE job_id = $1 AND idx > $2 LIMIT 1';
const COPY = `INSERT INTO job_segments (${COLUMNS})
  SELECT $1::text, idx, start_seconds, end_seconds, resume_seconds, text, words_json, language, $2::text, flags_json FROM job_segments
  WHERE job_id = $3::text ORDER BY idx`;
const RESUMED_FROM = 'SELECT resume_seconds FROM job_segments WHERE job_id = $1 AND created_at <= $2 ORDER BY idx DESC LIMIT 1';

export function createPgSegmentsRepo(sql: Sql): Async<SegmentsRepo> {
  return {
    append: async (r) =>
      (await sql.run(APPEND, [r.job_id, r.idx, r.start_seconds, r.end_seconds, r.resume_seconds, r.text, r.words_json, r.language, r.created_at, r.flags_json ?? null])) === 1,
    last: async (jobId) => withoutEmptyFlags(await sql.one<SegmentRow>(LAST, [jobId])),
    count: async (jobId) => (await sql.one<{ n: number | null }>(COUNT, [jobId]))?.n ?? 0,
    all: async (jobId) => (await sql.all<SegmentRow>(ALL, [jobId])).map(withoutEmptyFlags),
    page: async (jobId, afterIdx, limit) => (await sql.all<SegmentRow>(PAGE, [jobId, afterIdx, limit])).map(withoutEmptyFlags),
    hasAfter: async (jobId, afterIdx) => (await sql.one(HAS_AFTER, [jobId, afterIdx])) !== undefined,
    copy: (fromJob, toJob, createdAt) => sql.run(COPY, [toJob, createdAt, fromJob]),
    resumedFrom: async (jobId, startedAt) => (await sql.one<{ resume_seconds: number }>(RESUMED_FROM, [jobId, startedAt]))?.resume_seconds ?? null,
  };
}
