import type { Migration } from './migration.js';

/**
 * The transcript workbench (docs/transcripts.md). `transcript_revisions` keeps every revision of a transcription's
 * text whole (revision 0 is the engine's original, never rewritten; an edit inserts the next number, so two editors
 * cannot both win). `transcript_search_rows` holds what library search finds — one row per segment of each job's
 * latest revision and one for the job's name (segment_idx NULL) — and `transcript_search` is the FTS5 index over it
 * (external content: the text lives once, in the rows table), with prefix indexes for 2 and 3 characters so `ab*`
 * and `abc*` cost what a word costs. Triggers keep the index in step with the rows in the same transaction, so an
 * edit, the history sweep deleting a job (it deletes every row that references the job) or anything else that
 * writes the rows cannot leave the index behind.
 */
export const transcriptRevisions: Migration = {
  version: 11,
  name: 'transcript-revisions',
  up: `
    CREATE TABLE transcript_revisions (
      job_id TEXT NOT NULL REFERENCES jobs(id),
      revision INTEGER NOT NULL,              -- 0 = the engine's original; each edit adds one
      speakers_json TEXT NOT NULL,            -- {"SPEAKER_0": "Alice", …}
      segments_json TEXT NOT NULL,            -- [{index, start, end, text, speaker, words: [{word, start, end}]}]
      created_at TEXT NOT NULL,
      PRIMARY KEY (job_id, revision)
    ) WITHOUT ROWID;

    CREATE TABLE transcript_search_rows (
      id INTEGER PRIMARY KEY,
      job_id TEXT NOT NULL REFERENCES jobs(id),
      account_id TEXT NOT NULL,
      job_created_at TEXT NOT NULL,           -- newest jobs first within equal rank
      job_name TEXT,                          -- shown with every hit
      segment_idx INTEGER,                    -- NULL: this row is the job's name
      start_seconds REAL,
      end_seconds REAL,
      body TEXT NOT NULL                      -- what is indexed: the segment's text, or the name
    );
    CREATE INDEX transcript_search_rows_job ON transcript_search_rows (job_id, segment_idx);

    CREATE VIRTUAL TABLE transcript_search USING fts5(
      body, content='transcript_search_rows', content_rowid='id', tokenize='unicode61 remove_diacritics 2', prefix='2 3'
    );
    CREATE TRIGGER transcript_search_rows_ai AFTER INSERT ON transcript_search_rows BEGIN
      INSERT INTO transcript_search (rowid, body) VALUES (new.id, new.body);
    END;
    CREATE TRIGGER transcript_search_rows_ad AFTER DELETE ON transcript_search_rows BEGIN
      INSERT INTO transcript_search (transcript_search, rowid, body) VALUES ('delete', old.id, old.body);
    END;
    CREATE TRIGGER transcript_search_rows_au AFTER UPDATE ON transcript_search_rows BEGIN
      INSERT INTO transcript_search (transcript_search, rowid, body) VALUES ('delete', old.id, old.body);
      INSERT INTO transcript_search (rowid, body) VALUES (new.id, new.body);
    END;
  `,
};
