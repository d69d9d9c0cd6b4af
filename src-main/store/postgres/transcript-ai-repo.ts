/** The answers of language-model actions on transcripts, on PostgreSQL, with the semantics of store/transcript-ai-repo.ts. */
import type { Async } from '../store.js';
import type { AiPartRow, AiResultRow, TranscriptAiRepo } from '../transcript-ai-repo.js';
import type { PgShared } from './shared.js';
import type { Sql } from './sql.js';

const PART_COLUMNS = 'job_id, stage, part, text, prompt_tokens, completion_tokens, created_at';
const PUT_PART = `INSERT INTO transcript_ai_parts (${PART_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)
  ON CONFLICT (job_id, stage, part) DO UPDATE SET text = excluded.text, prompt_tokens = excluded.prompt_tokens,
    completion_tokens = excluded.completion_tokens, created_at = excluded.created_at`;
const PARTS = `SELECT ${PART_COLUMNS} FROM transcript_ai_parts WHERE job_id = $1 ORDER BY stage, part`;
const PUT_RESULT = `INSERT INTO transcript_ai_results (job_id, source_job_id, account_id, action, created_at) VALUES ($1, $2, $3, $4, $5)
  ON CONFLICT (job_id) DO NOTHING`;
const RESULTS_FOR = `SELECT r.job_id, r.source_job_id, r.account_id, r.action, r.created_at
  FROM transcript_ai_results r JOIN jobs j ON j.id = r.job_id
  WHERE r.account_id = $1 AND r.source_job_id = $2 AND j.status = 'succeeded' ORDER BY r.created_at DESC, r.job_id DESC`;

export function createPgTranscriptAiRepo(sql: Sql, _shared: PgShared): Async<TranscriptAiRepo> {
  return {
    putPart: async (r) => void (await sql.run(PUT_PART, [r.job_id, r.stage, r.part, r.text, r.prompt_tokens, r.completion_tokens, r.created_at])),
    parts: async (jobId) =>
      (await sql.all<AiPartRow>(PARTS, [jobId])).map((r) => ({ ...r, part: Number(r.part), prompt_tokens: Number(r.prompt_tokens), completion_tokens: Number(r.completion_tokens) })),
    putResult: async (r) => void (await sql.run(PUT_RESULT, [r.job_id, r.source_job_id, r.account_id, r.action, r.created_at])),
    resultsFor: (accountId, sourceJobId) => sql.all<AiResultRow>(RESULTS_FOR, [accountId, sourceJobId]),
  };
}
