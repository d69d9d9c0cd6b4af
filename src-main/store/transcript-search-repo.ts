/**
 * The library search index (migration 011): rows for the segments of each job's latest revision and for its name,
 * and the FTS5 queries over them. Writes run inside the caller's transaction (an edit, or a batch of the indexer);
 * triggers carry them into the FTS index. Queries take an expression built by fts-query.ts, never raw user text.
 * A job whose rows are still to be written is listed as pending (migration 017, jobs/transcripts.ts).
 * The answers of language-model actions on a transcript are rows of it too (migration 027): `ai_job_id` set, found by
 * a search only while that job is succeeded, never counted as the transcript's own rows (`hasJob`, `rowsOf`).
 */
import type { Db } from './db.js';

export interface SearchRowInput {
  job_id: string;
  account_id: string;
  job_created_at: string;
  job_name: string | null;
  /** null: the row is the job's name. */
  segment_idx: number | null;
  start_seconds: number | null;
  end_seconds: number | null;
  body: string;
}

/**
 * A row of an AI action's answer (ai-search-rows in jobs/transcripts): `job_id` is the transcription it was made
 * from, `ai_job_id` the action's job; it has no segment or times.
 */
export interface AiSearchRowInput {
  job_id: string;
  account_id: string;
  job_created_at: string;
  job_name: string | null;
  ai_job_id: string;
  ai_action: string;
  body: string;
}

/** A matching row as a search answers it: the row's fields (its `body` is what the snippet is made from) and its rank. */
export interface SearchRowHit extends Omit<SearchRowInput, 'account_id'> {
  id: number;
  score: number;
  /** The AI action's job and action when the row is part of its answer; null for the transcript's own rows. */
  ai_job_id: string | null;
  ai_action: string | null;
}

export interface TranscriptSearchRepo {
  /** Whether the job has rows in the index. */
  hasJob(jobId: string): boolean;
  /**
   * How far the job's own rows reach: the highest segment index among them, -1 when only its name row is there, null
   * when it has none. The indexer writes a long transcript a slice per transaction and goes on from here.
   */
  indexedUpTo(jobId: string): number | null;
  /** Lists the job as waiting for its rows (its revision is recorded, its rows are written later in a batch). */
  markPending(jobId: string): void;
  /** Up to `limit` jobs waiting for their rows, oldest id first. */
  pending(limit: number): string[];
  /** Whether the job waits for its rows. */
  isPending(jobId: string): boolean;
  /** Whether any job waits for its rows. */
  anyPending(): boolean;
  /** The job's rows are written (or it needs none): it no longer waits. */
  clearPending(jobId: string): void;
  insert(rows: readonly SearchRowInput[]): void;
  /** Deletes the rows of segments `segmentIdxs` of the job and inserts `rows` (its name row stays). */
  replaceSegments(jobId: string, segmentIdxs: readonly number[], rows: readonly SearchRowInput[]): void;
  /** Rows of the job (its name row too): what the index holds for it, in row order (its AI answers' rows not). */
  rowsOf(jobId: string): (SearchRowInput & { id: number })[];
  /** Replaces the rows of an AI action's answer (a run again after a crash writes them again, never twice). */
  replaceAiResult(aiJobId: string, rows: readonly AiSearchRowInput[]): void;
  /** Adds rows to an AI action's answer (a long answer is written a batch per transaction after the first). */
  insertAiRows(rows: readonly AiSearchRowInput[]): void;
  /** The rows of an AI action's answer, in row order. */
  aiRowsOf(aiJobId: string): (AiSearchRowInput & { id: number })[];
  /** The newest row id (0 when there are none): a search's pages look only at rows up to it. */
  maxRowId(): number;
  /** How many rows up to `maxId` (every account's) match, counting no further than `cap`. */
  countMatches(match: string, maxId: number, cap: number): number;
  /**
   * The account's hits for an FTS5 expression among rows up to `maxId`, `limit` from `offset`: best rank first
   * (bm25, lower is better), then newest job, then job id, then row order. Ranking costs about 15 µs a matching row.
   */
  search(accountId: string, match: string, maxId: number, offset: number, limit: number): SearchRowHit[];
  /** The same hits unranked, most recently indexed first (score 0): as fast for a word in every segment as for a rare one. */
  searchNewest(accountId: string, match: string, maxId: number, offset: number, limit: number): SearchRowHit[];
}

export function createTranscriptSearchRepo(db: Db): TranscriptSearchRepo {
  const has = db.prepare<[string], { one: number }>('SELECT 1 AS one FROM transcript_search_rows WHERE job_id = ? AND ai_job_id IS NULL LIMIT 1');
  // Down the (job_id, segment_idx) index from its end: NULL (the name row) sorts last when descending.
  const upTo = db.prepare<[string], { n: number | null }>(
    'SELECT segment_idx AS n FROM transcript_search_rows WHERE job_id = ? AND ai_job_id IS NULL ORDER BY segment_idx DESC LIMIT 1',
  );
  const markPending = db.prepare<[string]>('INSERT OR IGNORE INTO transcript_search_pending (job_id) VALUES (?)');
  const pending = db.prepare<[number], string>('SELECT job_id FROM transcript_search_pending ORDER BY job_id LIMIT ?').pluck();
  const isPending = db.prepare<[string], number>('SELECT 1 FROM transcript_search_pending WHERE job_id = ?').pluck();
  const anyPending = db.prepare<[], number>('SELECT 1 FROM transcript_search_pending LIMIT 1').pluck();
  const clearPending = db.prepare<[string]>('DELETE FROM transcript_search_pending WHERE job_id = ?');
  const insert = db.prepare(`INSERT INTO transcript_search_rows
      (job_id, account_id, job_created_at, job_name, segment_idx, start_seconds, end_seconds, body)
    VALUES (@job_id, @account_id, @job_created_at, @job_name, @segment_idx, @start_seconds, @end_seconds, @body)`);
  const dropSegment = db.prepare<[string, number]>('DELETE FROM transcript_search_rows WHERE job_id = ? AND segment_idx = ?');
  const rowsOf = db.prepare<[string], SearchRowInput & { id: number }>(`SELECT id, job_id, account_id, job_created_at, job_name, segment_idx,
      start_seconds, end_seconds, body FROM transcript_search_rows WHERE job_id = ? AND ai_job_id IS NULL ORDER BY id`);
  const insertAi = db.prepare(`INSERT INTO transcript_search_rows (job_id, account_id, job_created_at, job_name, ai_job_id, ai_action, body)
    VALUES (@job_id, @account_id, @job_created_at, @job_name, @ai_job_id, @ai_action, @body)`);
  const dropAi = db.prepare<[string]>('DELETE FROM transcript_search_rows WHERE ai_job_id = ?');
  const aiRowsOf = db.prepare<[string], AiSearchRowInput & { id: number }>(`SELECT id, job_id, account_id, job_created_at, job_name, ai_job_id,
      ai_action, body FROM transcript_search_rows WHERE ai_job_id = ? ORDER BY id`);
  const maxRowId = db.prepare<[], { n: number | null }>('SELECT MAX(id) AS n FROM transcript_search_rows');
  const countMatches = db.prepare<[string, number, number], { n: number }>(
    'SELECT COUNT(*) AS n FROM (SELECT rowid FROM transcript_search WHERE transcript_search MATCH ? AND rowid <= ? LIMIT ?)',
  );
  type PageArgs = { match: string; account: string; maxId: number; offset: number; limit: number };
  const columns = 'r.id, r.job_id, r.job_created_at, r.job_name, r.segment_idx, r.start_seconds, r.end_seconds, r.body, r.ai_job_id, r.ai_action';
  // An AI answer's rows are written by its run, before the job settles: found only once it succeeded.
  const shown = `(r.ai_job_id IS NULL OR EXISTS (SELECT 1 FROM jobs j WHERE j.id = r.ai_job_id AND j.status = 'succeeded'))`;
  const search = db.prepare<PageArgs, SearchRowHit>(`
    SELECT ${columns}, s.rank AS score
    FROM (SELECT rowid, rank FROM transcript_search WHERE transcript_search MATCH @match AND rowid <= @maxId ORDER BY rank) s
    JOIN transcript_search_rows r ON r.id = s.rowid
    WHERE r.account_id = @account AND ${shown}
    ORDER BY s.rank, r.job_created_at DESC, r.job_id DESC, r.id LIMIT @limit OFFSET @offset`);
  const newest = db.prepare<PageArgs, SearchRowHit>(`
    SELECT ${columns}, 0 AS score
    FROM transcript_search JOIN transcript_search_rows r ON r.id = transcript_search.rowid
    WHERE transcript_search MATCH @match AND transcript_search.rowid <= @maxId AND r.account_id = @account AND ${shown}
    ORDER BY transcript_search.rowid DESC LIMIT @limit OFFSET @offset`);
  const insertAll = (rows: readonly SearchRowInput[]): void => {
    for (const row of rows) insert.run(row);
  };
  return {
    hasJob: (jobId) => has.get(jobId) !== undefined,
    indexedUpTo: (jobId) => {
      const row = upTo.get(jobId);
      return row === undefined ? null : (row.n ?? -1);
    },
    markPending: (jobId) => void markPending.run(jobId),
    pending: (limit) => pending.all(limit),
    isPending: (jobId) => isPending.get(jobId) !== undefined,
    anyPending: () => anyPending.get() !== undefined,
    clearPending: (jobId) => void clearPending.run(jobId),
    insert: insertAll,
    replaceSegments: (jobId, segmentIdxs, rows) => {
      for (const idx of segmentIdxs) dropSegment.run(jobId, idx);
      insertAll(rows);
    },
    rowsOf: (jobId) => rowsOf.all(jobId),
    replaceAiResult: (aiJobId, rows) => {
      dropAi.run(aiJobId);
      for (const row of rows) insertAi.run(row);
    },
    insertAiRows: (rows) => {
      for (const row of rows) insertAi.run(row);
    },
    aiRowsOf: (aiJobId) => aiRowsOf.all(aiJobId),
    maxRowId: () => maxRowId.get()?.n ?? 0,
    countMatches: (match, maxId, cap) => countMatches.get(match, maxId, cap)?.n ?? 0,
    search: (accountId, match, maxId, offset, limit) => search.all({ match, account: accountId, maxId, offset, limit }),
    searchNewest: (accountId, match, maxId, offset, limit) => newest.all({ match, account: accountId, maxId, offset, limit }),
  };
}
