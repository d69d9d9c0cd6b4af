import type { Migration } from './migration.js';

/**
 * The library search index is written after a transcription's result, not with it. Writing a job's search rows and
 * their FTS5 entries in the transaction that settles it cost about a tenth of the job engine's time per trivial job
 * (an FTS5 insert flushes a new index segment at every commit, bench/jobs-throughput.ts); written for many jobs in
 * one transaction they cost a fraction of that. A job listed here has its revisions but not yet its search rows;
 * `jobs/transcripts.ts` indexes the list in batches (on the scheduler's timer and before every search, so a search
 * never misses a finished transcript) and removes each job from it in the transaction that writes its rows. Deleting
 * a job (the history sweep deletes every row that references it) removes it from the list too.
 */
export const searchIndexLater: Migration = {
  version: 17,
  name: 'search-index-later',
  up: `
    CREATE TABLE transcript_search_pending (
      job_id TEXT PRIMARY KEY REFERENCES jobs(id)
    ) WITHOUT ROWID;
  `,
};
