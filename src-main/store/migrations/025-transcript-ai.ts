/**
 * Language-model actions on transcripts (issue 31, docs/ai-actions.md). `transcript_ai_parts` holds each answer the
 * language model gave an action's job — one per part of the transcript, then the answer that combined them — as soon
 * as it arrives: a job run again (a SIGKILL, a restart, a lost lease) asks only for the parts it has not got, so no
 * prompt is paid for twice. `transcript_ai_results` lists the finished actions of a transcript (its AI panel, the
 * exports); the answer itself is the job's result.
 */
import type { Migration } from './migration.js';

const table = (T: string, I: string): string => `
    CREATE TABLE transcript_ai_parts (
      job_id ${T} NOT NULL,                   -- the action's job
      stage ${T} NOT NULL,                    -- 'map' (one part of the transcript) or 'reduce' (the parts combined)
      part ${I} NOT NULL,                     -- 0-based, in transcript order
      text ${T} NOT NULL,                     -- the model's answer
      prompt_tokens ${I} NOT NULL,
      completion_tokens ${I} NOT NULL,
      created_at ${T} NOT NULL,
      PRIMARY KEY (job_id, stage, part)
    );
    CREATE TABLE transcript_ai_results (
      job_id ${T} PRIMARY KEY,                -- the action's job (its result holds the answer)
      source_job_id ${T} NOT NULL,            -- the transcription it was made from
      account_id ${T} NOT NULL,
      action ${T} NOT NULL,
      created_at ${T} NOT NULL
    );
    CREATE INDEX transcript_ai_results_source ON transcript_ai_results (source_job_id, created_at);
`;

export const transcriptAi: Migration = {
  version: 25,
  name: 'transcript-ai',
  up: table('TEXT', 'INTEGER'),
  postgres: table('text COLLATE "C"', 'bigint'),
};
