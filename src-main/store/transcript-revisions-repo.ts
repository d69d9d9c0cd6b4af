/**
 * Revisions of transcriptions (migration 011; a rowid table with a unique (job_id, revision) index since 021). Every
 * revision is kept whole; a new one is inserted only as the next number after the job's newest, checked in the INSERT
 * itself, so inside the caller's IMMEDIATE transaction it is a compare-and-set: of two edits made from the same base
 * revision exactly one is stored.
 */
import type { Db } from './db.js';

export interface RevisionRow {
  job_id: string;
  revision: number;
  /** JSON of the speakers map. */
  speakers_json: string;
  /** JSON of RevisionSegment[]. */
  segments_json: string;
  created_at: string;
}

export interface TranscriptRevisionsRepo {
  get(jobId: string, revision: number): RevisionRow | undefined;
  latest(jobId: string): RevisionRow | undefined;
  /** The job's newest revision number, or null when it has none yet. */
  latestNumber(jobId: string): number | null;
  /** Inserts `row` when its number is exactly one past the job's newest (0 when it has none); false otherwise. */
  insertNext(row: RevisionRow): boolean;
  /** Up to `limit` succeeded transcriptions without any revision (finished before revisions existed). */
  withoutRevision(limit: number): string[];
}

/** A row's columns without the table's rowid (migration 021), which is no part of a revision. */
const COLUMNS = 'job_id, revision, speakers_json, segments_json, created_at';

export function createTranscriptRevisionsRepo(db: Db): TranscriptRevisionsRepo {
  const get = db.prepare<[string, number], RevisionRow>(`SELECT ${COLUMNS} FROM transcript_revisions WHERE job_id = ? AND revision = ?`);
  const latest = db.prepare<[string], RevisionRow>(`SELECT ${COLUMNS} FROM transcript_revisions WHERE job_id = ? ORDER BY revision DESC LIMIT 1`);
  const latestNumber = db.prepare<[string], { n: number | null }>('SELECT MAX(revision) AS n FROM transcript_revisions WHERE job_id = ?');
  const insertNext = db.prepare(`INSERT INTO transcript_revisions (job_id, revision, speakers_json, segments_json, created_at)
    SELECT @job_id, @revision, @speakers_json, @segments_json, @created_at
    WHERE COALESCE((SELECT MAX(revision) FROM transcript_revisions WHERE job_id = @job_id), -1) + 1 = @revision`);
  const withoutRevision = db.prepare<[number], { id: string }>(`SELECT j.id FROM jobs j
    WHERE j.product = 'speech-to-text' AND j.status = 'succeeded'
      AND NOT EXISTS (SELECT 1 FROM transcript_revisions r WHERE r.job_id = j.id) LIMIT ?`);
  return {
    withoutRevision: (limit) => withoutRevision.all(limit).map((r) => r.id),
    get: (jobId, revision) => get.get(jobId, revision),
    latest: (jobId) => latest.get(jobId),
    latestNumber: (jobId) => latestNumber.get(jobId)?.n ?? null,
    insertNext: (row) => insertNext.run(row).changes === 1,
  };
}
