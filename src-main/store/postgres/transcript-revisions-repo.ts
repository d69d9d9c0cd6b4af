/**
 * Revisions of transcriptions on PostgreSQL, with the semantics of store/transcript-revisions-repo.ts. `insertNext`
 * inserts only the number one past the job's newest, checked in the INSERT, and does nothing on the unique key
 * (job_id, revision): at READ COMMITTED two edits from the same base on two nodes both see the same newest number, and
 * the unique key lets exactly one in — the second waits for the first's insert and is told false (a 409 for its
 * editor), as SQLite's IMMEDIATE transaction makes it.
 */
import type { RevisionRow, TranscriptRevisionsRepo } from '../transcript-revisions-repo.js';
import type { Async } from '../store.js';
import type { Sql } from './sql.js';

const COLUMNS = 'job_id, revision, speakers_json, segments_json, created_at';
const GET = `SELECT ${COLUMNS} FROM transcript_revisions WHERE job_id = $1 AND revision = $2`;
const LATEST = `SELECT ${COLUMNS} FROM transcript_revisions WHERE job_id = $1 ORDER BY revision DESC LIMIT 1`;
const LATEST_NUMBER = 'SELECT MAX(revision) AS n FROM transcript_revisions WHERE job_id = $1';
const INSERT_NEXT = `INSERT INTO transcript_revisions (${COLUMNS})
  SELECT $1::text, $2::bigint, $3::text, $4::text, $5::text
  WHERE COALESCE((SELECT MAX(revision) FROM transcript_revisions WHERE job_id = $1::text), -1) + 1 = $2::bigint
  ON CONFLICT DO NOTHING`;
const WITHOUT_REVISION = `SELECT j.id FROM jobs j
  WHERE j.product = 'speech-to-text' AND j.status = 'succeeded'
    AND NOT EXISTS (SELECT 1 FROM transcript_revisions r WHERE r.job_id = j.id) LIMIT $1`;

export function createPgTranscriptRevisionsRepo(sql: Sql): Async<TranscriptRevisionsRepo> {
  return {
    get: (jobId, revision) => sql.one<RevisionRow>(GET, [jobId, revision]),
    latest: (jobId) => sql.one<RevisionRow>(LATEST, [jobId]),
    latestNumber: async (jobId) => (await sql.one<{ n: number | null }>(LATEST_NUMBER, [jobId]))?.n ?? null,
    insertNext: async (r) => (await sql.run(INSERT_NEXT, [r.job_id, r.revision, r.speakers_json, r.segments_json, r.created_at])) === 1,
    withoutRevision: async (limit) => (await sql.all<{ id: string }>(WITHOUT_REVISION, [limit])).map((r) => r.id),
  };
}
