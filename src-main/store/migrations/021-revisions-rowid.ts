/**
 * `transcript_revisions` becomes an ordinary rowid table. As a WITHOUT ROWID table (migration 011) its rows lived in
 * the primary key's b-tree, ordered by job id, where SQLite splits a full page in two instead of starting a new one at
 * the end, keeps only about 1 KB of a row on the b-tree page (an index-style page) before spilling the rest to
 * overflow pages, and moves whole rows when it rebalances: every succeeded transcription inserts its revision 0 in
 * the commit that records the success, so those splits and spills were pages in that commit's WAL write
 * (bench/jobs-throughput.ts). A rowid table appends each new row to its last page and keeps up to a page of a row
 * in place; the (job_id, revision) key becomes a small UNIQUE index beside it, which keeps the one-revision-per-number
 * rule and serves every lookup (a job's latest revision, a given revision, whether a job has one).
 *
 * Every row is kept as it was, copied in the order the revisions were made (so rowids follow creation); no other
 * table references this one.
 */
import type { Migration } from './migration.js';

export const revisionsRowid: Migration = {
  version: 21,
  name: 'revisions-rowid',
  up: `
    CREATE TABLE transcript_revisions_new (
      id INTEGER PRIMARY KEY,
      job_id TEXT NOT NULL REFERENCES jobs(id),
      revision INTEGER NOT NULL,              -- 0 = the engine's original; each edit adds one
      speakers_json TEXT NOT NULL,            -- {"SPEAKER_0": "Alice", …}
      segments_json TEXT NOT NULL,            -- [{index, start, end, text, speaker, words: [{word, start, end}]}]
      created_at TEXT NOT NULL
    );
    INSERT INTO transcript_revisions_new (job_id, revision, speakers_json, segments_json, created_at)
      SELECT job_id, revision, speakers_json, segments_json, created_at FROM transcript_revisions
      ORDER BY created_at, job_id, revision;
    DROP TABLE transcript_revisions;
    ALTER TABLE transcript_revisions_new RENAME TO transcript_revisions;
    CREATE UNIQUE INDEX transcript_revisions_job ON transcript_revisions(job_id, revision);
  `,
};
