import type { Migration } from './migration.js';

/**
 * Checkpoints of speech-to-text jobs: every recognised segment is a row, committed with the job's progress as soon
 * as it is recognised, so a job that stops (a restart, a pause, a failure) continues after its last row and the
 * finished transcript is built from the rows. `pause_requested` asks a running job to stop after its current segment
 * and wait in the queue (`error_code` 'paused'), as `cancel_requested` asks it to stop for good.
 */
export const transcriptSegments: Migration = {
  version: 7,
  name: 'transcript-segments',
  up: `
    CREATE TABLE job_segments (
      job_id TEXT NOT NULL REFERENCES jobs(id),
      idx INTEGER NOT NULL,                   -- 0, 1, 2… over the whole recording, the same in every run
      start_seconds REAL NOT NULL,            -- seconds from the start of the recording
      end_seconds REAL NOT NULL,
      resume_seconds REAL NOT NULL,           -- where a later run continues after this segment (usually its end)
      text TEXT NOT NULL,                     -- as recognised; '' when the segment held no words
      words_json TEXT,                        -- [{word, start, end}] when the engine gives word timings
      language TEXT,                          -- language detected in the segment, when the recognizer tells
      created_at TEXT NOT NULL,               -- commit time: rows older than a run's start are what it resumed after
      PRIMARY KEY (job_id, idx)
    ) WITHOUT ROWID;
    ALTER TABLE jobs ADD COLUMN pause_requested INTEGER NOT NULL DEFAULT 0;
  `,
};
