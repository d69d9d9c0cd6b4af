/**
 * The library search index on PostgreSQL, with the semantics of store/transcript-search-repo.ts: full-text search
 * over `transcript_search_rows.tsv` (a GIN index) with FTS5's query meaning, ranking and tie order (search-text.ts).
 * Queries take the expression fts-query.ts builds, never raw user text. The caller ranks only when at most
 * MAX_RANKED_MATCHES rows match (jobs/transcripts.ts), so `search` reads the account's matching rows and ranks them
 * here; `searchNewest` pages them by row id in the database. Ranking reads the index's row count and total length
 * (a scan of the rows table) once per ranked search.
 *
 * Writes run inside the caller's transaction. Across nodes:
 * - `markPending` is `ON CONFLICT DO NOTHING` on the job id: two nodes listing the same job list it once.
 * - `pending` locks the rows it answers (`FOR UPDATE`, in job id order) until the indexer's transaction ends: a
 *   second node indexing at once waits for the first, then finds those jobs gone from the list — it never writes a
 *   job's rows twice — and a search that catches up first waits for rows being written, so it does not miss them.
 * - `isPending` takes a share lock on the row it finds (`FOR SHARE`): an edit deciding whether the indexer will
 *   write its segments waits for an indexer holding the job, then sees it indexed and replaces its rows itself; an
 *   indexer coming after the edit waits for it and reads its revision. Row ids come from an identity column; one taken by a transaction that commits
 * after a search began can be at or below that search's `maxRowId()`, so such a row may appear on a later page of it
 * (SQLite hands ids out one writer at a time, so there it cannot).
 */
import type { Async } from '../store.js';
import type { AiSearchRowInput, SearchRowHit, SearchRowInput, TranscriptSearchRepo } from '../transcript-search-repo.js';
import { bm25, idf, matchesNothing, matchQuery, parseMatch, phraseQuery, searchDocument, tokens } from './search-text.js';
import type { Sql } from './sql.js';

const HAS = 'SELECT 1 AS one FROM transcript_search_rows WHERE job_id = $1 AND ai_job_id IS NULL LIMIT 1';
const UP_TO = 'SELECT segment_idx AS n FROM transcript_search_rows WHERE job_id = $1 AND ai_job_id IS NULL ORDER BY segment_idx DESC NULLS LAST LIMIT 1';
const MARK_PENDING = 'INSERT INTO transcript_search_pending (job_id) VALUES ($1) ON CONFLICT DO NOTHING';
const PENDING = 'SELECT job_id FROM transcript_search_pending ORDER BY job_id LIMIT $1 FOR UPDATE';
const IS_PENDING = 'SELECT 1 AS one FROM transcript_search_pending WHERE job_id = $1 FOR SHARE';
const ANY_PENDING = 'SELECT 1 AS one FROM transcript_search_pending LIMIT 1';
const CLEAR_PENDING = 'DELETE FROM transcript_search_pending WHERE job_id = $1';
// Rows are inserted in the order given (ids follow it), in one statement however many there are.
const INSERT = `INSERT INTO transcript_search_rows
    (job_id, account_id, job_created_at, job_name, segment_idx, start_seconds, end_seconds, body, tsv, body_tokens)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::double precision[],
    $7::double precision[], $8::text[], $9::tsvector[], $10::bigint[])`;
const DROP_SEGMENTS = 'DELETE FROM transcript_search_rows WHERE job_id = $1 AND segment_idx = ANY($2::bigint[])';
const ROW_COLUMNS = 'id, job_id, account_id, job_created_at, job_name, segment_idx, start_seconds, end_seconds, body';
const ROWS_OF = `SELECT ${ROW_COLUMNS} FROM transcript_search_rows WHERE job_id = $1 AND ai_job_id IS NULL ORDER BY id`;
// An AI action's answer (migration 027): its rows are replaced whole, in the order given.
const INSERT_AI = `INSERT INTO transcript_search_rows
    (job_id, account_id, job_created_at, job_name, ai_job_id, ai_action, body, tsv, body_tokens)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::tsvector[], $9::bigint[])`;
const DROP_AI = 'DELETE FROM transcript_search_rows WHERE ai_job_id = $1';
const AI_ROWS_OF = `SELECT id, job_id, account_id, job_created_at, job_name, ai_job_id, ai_action, body
  FROM transcript_search_rows WHERE ai_job_id = $1 ORDER BY id`;
// An AI answer's rows are written by its run, before the job settles: found only once it succeeded.
const SHOWN = `(transcript_search_rows.ai_job_id IS NULL
  OR EXISTS (SELECT 1 FROM jobs j WHERE j.id = transcript_search_rows.ai_job_id AND j.status = 'succeeded'))`;
const MAX_ROW_ID = 'SELECT COALESCE(MAX(id), 0) AS n FROM transcript_search_rows';
const COUNT_MATCHES = `SELECT COUNT(*) AS n FROM (
    SELECT 1 FROM transcript_search_rows WHERE tsv @@ $1::tsquery AND id <= $2 LIMIT $3) m`;
const HIT_COLUMNS = 'id, job_id, job_created_at, job_name, segment_idx, start_seconds, end_seconds, body, ai_job_id, ai_action';
const MATCHING = `SELECT ${HIT_COLUMNS} FROM transcript_search_rows WHERE tsv @@ $1::tsquery AND id <= $2 AND account_id = $3 AND ${SHOWN}`;
const NEWEST = `SELECT ${HIT_COLUMNS}, 0 AS score FROM transcript_search_rows
  WHERE tsv @@ $1::tsquery AND id <= $2 AND account_id = $3 AND ${SHOWN} ORDER BY id DESC LIMIT $4 OFFSET $5`;
// What bm25 needs from the whole index (every account's rows, as FTS5 counts them): rows, words, rows per phrase.
const RANK_STATS = `SELECT (SELECT COUNT(*) FROM transcript_search_rows) AS "rows",
    (SELECT COALESCE(SUM(body_tokens), 0) FROM transcript_search_rows) AS words,
    ARRAY(SELECT (SELECT COUNT(*) FROM transcript_search_rows r WHERE r.tsv @@ u.q)
          FROM unnest($1::tsquery[]) WITH ORDINALITY AS u(q, i) ORDER BY u.i) AS hits`;

/** Best rank first, then newest job, then job id (newest first), then row order: the SQLite query's ORDER BY. */
function byRank(a: SearchRowHit, b: SearchRowHit): number {
  if (a.score !== b.score) return a.score < b.score ? -1 : 1;
  if (a.job_created_at !== b.job_created_at) return a.job_created_at > b.job_created_at ? -1 : 1;
  if (a.job_id !== b.job_id) return a.job_id > b.job_id ? -1 : 1;
  return a.id - b.id;
}

export function createPgTranscriptSearchRepo(sql: Sql): Async<TranscriptSearchRepo> {
  const insertAll = async (on: Sql, rows: readonly SearchRowInput[]): Promise<void> => {
    if (rows.length === 0) return;
    const documents = rows.map((r) => searchDocument(r.body));
    await on.run(INSERT, [
      rows.map((r) => r.job_id),
      rows.map((r) => r.account_id),
      rows.map((r) => r.job_created_at),
      rows.map((r) => r.job_name),
      rows.map((r) => r.segment_idx),
      rows.map((r) => r.start_seconds),
      rows.map((r) => r.end_seconds),
      rows.map((r) => r.body),
      documents.map((d) => d.tsv),
      documents.map((d) => d.length),
    ]);
  };
  const insertAi = async (on: Sql, rows: readonly AiSearchRowInput[]): Promise<void> => {
    if (rows.length === 0) return;
    const documents = rows.map((r) => searchDocument(r.body));
    const column = <K extends keyof AiSearchRowInput>(key: K): AiSearchRowInput[K][] => rows.map((r) => r[key]);
    await on.run(INSERT_AI, [
      column('job_id'), column('account_id'), column('job_created_at'), column('job_name'), column('ai_job_id'), column('ai_action'), column('body'),
      documents.map((d) => d.tsv),
      documents.map((d) => d.length),
    ]);
  };
  return {
    hasJob: async (jobId) => (await sql.one(HAS, [jobId])) !== undefined,
    indexedUpTo: async (jobId) => {
      const row = await sql.one<{ n: string | number | null }>(UP_TO, [jobId]);
      return row === undefined ? null : row.n === null ? -1 : Number(row.n);
    },
    markPending: async (jobId) => void (await sql.run(MARK_PENDING, [jobId])),
    pending: async (limit) => (await sql.all<{ job_id: string }>(PENDING, [limit])).map((r) => r.job_id),
    isPending: async (jobId) => (await sql.one(IS_PENDING, [jobId])) !== undefined,
    anyPending: async () => (await sql.one(ANY_PENDING)) !== undefined,
    clearPending: async (jobId) => void (await sql.run(CLEAR_PENDING, [jobId])),
    insert: (rows) => insertAll(sql, rows),
    replaceSegments: (jobId, segmentIdxs, rows) =>
      sql.atomic(async (t) => {
        if (segmentIdxs.length > 0) await t.run(DROP_SEGMENTS, [jobId, segmentIdxs]);
        await insertAll(t, rows);
      }),
    rowsOf: (jobId) => sql.all<SearchRowInput & { id: number }>(ROWS_OF, [jobId]),
    replaceAiResult: (aiJobId, rows) =>
      sql.atomic(async (t) => {
        await t.run(DROP_AI, [aiJobId]);
        await insertAi(t, rows);
      }),
    insertAiRows: (rows) => insertAi(sql, rows),
    aiRowsOf: (aiJobId) => sql.all<AiSearchRowInput & { id: number }>(AI_ROWS_OF, [aiJobId]),
    maxRowId: async () => (await sql.one<{ n: number }>(MAX_ROW_ID))?.n ?? 0,
    async countMatches(match, maxId, cap) {
      const phrases = parseMatch(match);
      if (matchesNothing(phrases)) return 0;
      return (await sql.one<{ n: number }>(COUNT_MATCHES, [matchQuery(phrases), maxId, cap]))?.n ?? 0;
    },
    async search(accountId, match, maxId, offset, limit) {
      const phrases = parseMatch(match);
      if (matchesNothing(phrases)) return [];
      const rows = await sql.all<Omit<SearchRowHit, 'score'>>(MATCHING, [matchQuery(phrases), maxId, accountId]);
      if (rows.length === 0) return [];
      const stats = (await sql.one<{ rows: number; words: number; hits: (string | number)[] }>(RANK_STATS, [phrases.map(phraseQuery)]))!;
      const weights = idf({ rows: stats.rows, totalWords: stats.words, rowsWithPhrase: stats.hits.map(Number) });
      const avgdl = stats.words / stats.rows;
      return rows
        .map((row): SearchRowHit => ({ ...row, score: bm25(tokens(row.body), phrases, weights, avgdl) }))
        .sort(byRank)
        .slice(offset, offset + limit);
    },
    async searchNewest(accountId, match, maxId, offset, limit) {
      const phrases = parseMatch(match);
      if (matchesNothing(phrases)) return [];
      return sql.all<SearchRowHit>(NEWEST, [matchQuery(phrases), maxId, accountId, limit, offset]);
    },
  };
}
