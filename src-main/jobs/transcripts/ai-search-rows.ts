/**
 * The library search rows of a language-model action's answer (migration 027, docs/ai-actions.md "Search"): a
 * summary, action items, chapters, an answer or a translation is found by the same search as the transcript it was
 * made from, and its hits say which action wrote it. Clean-up is not indexed here: it is saved as the transcript's
 * next revision, whose segments the index holds already.
 *
 * The answer is cut into rows of at most AI_SEARCH_ROW_CHARS (at line breaks, else at spaces) so a hit's snippet is
 * made from a paragraph, not from the whole answer, and the work is bounded: an answer is at most the parts' answers
 * the action allows (each request asks for at most its `max_tokens`, ai-chunks.ts answerTokens), written once per run,
 * the first batch with the action's result, the rest a batch per transaction (indexAiAnswer).
 */
import type { JobRow } from '../../store/jobs-repo.js';
import type { Store, StoreRepos } from '../../store/store.js';
import type { AiSearchRowInput } from '../../store/transcript-search-repo.js';
import { jobName } from './transcripts-search-index.js';

/** The longest row (characters): a paragraph or two, about what a long segment holds. */
export const AI_SEARCH_ROW_CHARS = 1_000;

/** The answer's text in pieces of at most `max` characters: whole lines where they fit, else cut at a space. */
export function answerPieces(text: string, max = AI_SEARCH_ROW_CHARS): string[] {
  const pieces: string[] = [];
  let current = '';
  const flush = (): void => {
    if (current.trim() !== '') pieces.push(current.trim());
    current = '';
  };
  for (const rawLine of text.split('\n')) {
    let line = rawLine.trim();
    if (line === '') continue;
    if (current !== '' && current.length + 1 + line.length > max) flush();
    while (line.length > max) {
      const space = line.lastIndexOf(' ', max);
      const cut = space > max / 2 ? space : max;
      if (current !== '') flush();
      pieces.push(line.slice(0, cut).trim());
      line = line.slice(cut).trim();
    }
    current = current === '' ? line : `${current}\n${line}`;
  }
  flush();
  return pieces.filter((p) => p !== '');
}

/** The rows of an action's answer, each naming the transcription (`source`) and the action's job. */
export function aiSearchRows(source: JobRow, aiJobId: string, action: string, text: string): AiSearchRowInput[] {
  const base = { job_id: source.id, account_id: source.account_id, job_created_at: source.created_at, job_name: jobName(source) };
  return answerPieces(text).map((body) => ({ ...base, ai_job_id: aiJobId, ai_action: action, body }));
}

/** Rows one transaction writes at most (about 50 kB of text: a few milliseconds on either backend). */
export const AI_INDEX_BATCH_ROWS = 50;

/**
 * The answer's rows in batches: the first replaces any rows an earlier run of the job wrote (none for clean-up, or
 * when the transcription is gone), inside the caller's write transaction (`first`, which also records the result);
 * the rest are added one batch per transaction, the event loop free between them — a translation of a ten-hour
 * transcript (about 550 kB, 600 rows) took 25 ms to write into SQLite and 60 ms to make PostgreSQL's documents of in
 * one go. A crash between batches leaves rows of a job that has not succeeded, which no search shows and the run
 * again replaces.
 */
export async function indexAiAnswer(
  store: Store,
  first: (repos: StoreRepos) => Promise<void>,
  answer: { sourceJobId: string; aiJobId: string; action: string; text: string },
): Promise<void> {
  const source = answer.action === 'clean_up' ? undefined : await store.repos.jobs.getWithoutResult(answer.sourceJobId);
  const rows = source ? aiSearchRows(source, answer.aiJobId, answer.action, answer.text) : [];
  await store.tx(async ({ repos }) => {
    await first(repos);
    await repos.search.replaceAiResult(answer.aiJobId, rows.slice(0, AI_INDEX_BATCH_ROWS));
  });
  for (let at = AI_INDEX_BATCH_ROWS; at < rows.length; at += AI_INDEX_BATCH_ROWS) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    await store.tx(({ repos }) => repos.search.insertAiRows(rows.slice(at, at + AI_INDEX_BATCH_ROWS)));
  }
}
