/**
 * The answers of language-model actions on transcripts (migration 025): each part's answer kept as it arrives (a run
 * again after a crash asks only for the rest), and which finished actions a transcription has.
 */
import type { Db } from './db.js';

export type AiStage = 'map' | 'reduce';

export interface AiPartRow {
  job_id: string;
  stage: AiStage;
  part: number;
  text: string;
  prompt_tokens: number;
  completion_tokens: number;
  created_at: string;
}

export interface AiResultRow {
  job_id: string;
  source_job_id: string;
  account_id: string;
  action: string;
  created_at: string;
}

export interface TranscriptAiRepo {
  /** Keeps one part's answer; the same part again (a run that had not seen it committed) replaces it. */
  putPart(row: AiPartRow): void;
  /** The job's kept answers, by stage then part. */
  parts(jobId: string): AiPartRow[];
  /** Records a finished action of a transcription (the same job again changes nothing). */
  putResult(row: AiResultRow): void;
  /** The account's actions on a transcription whose jobs succeeded, newest first. */
  resultsFor(accountId: string, sourceJobId: string): AiResultRow[];
}

const PART_COLUMNS = 'job_id, stage, part, text, prompt_tokens, completion_tokens, created_at';
const RESULT_COLUMNS = 'job_id, source_job_id, account_id, action, created_at';

export function createTranscriptAiRepo(db: Db): TranscriptAiRepo {
  const putPart = db.prepare(`INSERT INTO transcript_ai_parts (${PART_COLUMNS})
    VALUES (@job_id, @stage, @part, @text, @prompt_tokens, @completion_tokens, @created_at)
    ON CONFLICT (job_id, stage, part) DO UPDATE SET text = excluded.text, prompt_tokens = excluded.prompt_tokens,
      completion_tokens = excluded.completion_tokens, created_at = excluded.created_at`);
  const parts = db.prepare<[string], AiPartRow>(`SELECT ${PART_COLUMNS} FROM transcript_ai_parts WHERE job_id = ? ORDER BY stage, part`);
  const putResult = db.prepare(`INSERT INTO transcript_ai_results (${RESULT_COLUMNS})
    VALUES (@job_id, @source_job_id, @account_id, @action, @created_at) ON CONFLICT (job_id) DO NOTHING`);
  const resultsFor = db.prepare<[string, string], AiResultRow>(`SELECT r.job_id, r.source_job_id, r.account_id, r.action, r.created_at
    FROM transcript_ai_results r JOIN jobs j ON j.id = r.job_id
    WHERE r.account_id = ? AND r.source_job_id = ? AND j.status = 'succeeded' ORDER BY r.created_at DESC, r.job_id DESC`);
  return {
    putPart: (row) => void putPart.run(row),
    parts: (jobId) => parts.all(jobId),
    putResult: (row) => void putResult.run(row),
    resultsFor: (accountId, sourceJobId) => resultsFor.all(accountId, sourceJobId),
  };
}
