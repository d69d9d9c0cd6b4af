/**
 * AI results in the library search (issue 31, docs/ai-actions.md "Search"). A succeeded language-model action's
 * answer (summary, action items, chapters, an answer, a translation; clean-up is a revision and is found as one) is
 * indexed in the same `transcript_search_rows` as the transcript it was made from: `job_id` is that transcription, so
 * deleting it deletes them; `ai_job_id` is the action's job, so deleting that job (the history sweep deletes every row
 * referencing a job) deletes them too; `ai_action` says which action wrote them. A row with `ai_job_id` NULL is the
 * transcript's own (a segment, or the name when `segment_idx` is NULL). A search shows an AI row only while its job
 * is succeeded (the row is written by the run, before the job settles).
 */
import type { Migration } from './migration.js';

export const aiResultsSearchable: Migration = {
  version: 27,
  name: 'ai-results-searchable',
  up: `
    ALTER TABLE transcript_search_rows ADD COLUMN ai_job_id TEXT REFERENCES jobs(id);
    ALTER TABLE transcript_search_rows ADD COLUMN ai_action TEXT;
    CREATE INDEX transcript_search_rows_ai ON transcript_search_rows (ai_job_id) WHERE ai_job_id IS NOT NULL;
  `,
  postgres: `
    ALTER TABLE transcript_search_rows ADD COLUMN ai_job_id text COLLATE "C" REFERENCES jobs(id);
    ALTER TABLE transcript_search_rows ADD COLUMN ai_action text COLLATE "C";
    CREATE INDEX transcript_search_rows_ai ON transcript_search_rows (ai_job_id) WHERE ai_job_id IS NOT NULL;
  `,
};
