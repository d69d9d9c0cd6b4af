/**
 * The jobs table on PostgreSQL, with the semantics of store/jobs-repo.ts. Safe for many nodes at READ COMMITTED:
 * - `write` is a compare-and-set: `UPDATE … WHERE id = $id AND status = $expected`. A second writer of the same row
 *   waits for the first's row lock, then re-checks the WHERE against the row as the first committed it, so of two
 *   nodes moving a job out of the same status (a claim, a settle, a cancel) exactly one changes it.
 * - The queue reads a scheduling pass makes inside its transaction (`queued`, `queuedAfter`, `queuedUnmarked`) take
 *   `FOR UPDATE SKIP LOCKED`: the rows another node's pass is looking at are passed over instead of waited for, so
 *   two workers claim different jobs in the same moment, and the claim's compare-and-set never finds a row another
 *   pass moved (which would fail the whole pass). Outside a transaction they are plain reads.
 * - `renewLeases` is one UPDATE that holds only the rows still `running` and claimed by this instance.
 * - `insert` fails on a taken id (the primary key); `markInputPurged` writes the same value whichever node sweeps.
 * - Reads see what was committed when each statement began; nothing else here needs a lock.
 * `dataVersion()` counts other nodes' commits (the change feed), as SQLite's data_version counts other connections';
 * `unmarkedStamp()` moves with this store's writes that may leave a row queued without a waiting code (and again when
 * their transaction commits).
 */
import { PAUSED, type WaitingCode } from '../../common/errors.js';
import type { JobStatus } from '../../common/job-states.js';
import type { JobMutable, JobRow, JobsRepo } from '../jobs-repo.js';
import type { Async } from '../store.js';
import type { PgShared } from './shared.js';
import type { Sql } from './sql.js';

const BUDGET_WAIT: WaitingCode = 'waiting_for_budget';

const MUTABLE_COLUMNS: ReadonlySet<string> = new Set<keyof JobMutable>([
  'status', 'error_code', 'error_message', 'duration_seconds', 'result_json', 'progress', 'attempts', 'cancel_requested',
  'pause_requested', 'claimed_by', 'lease_expires_at', 'deadline_at', 'reserved_usd_micro', 'started_at', 'finished_at', 'updated_at',
]);

const INSERT_COLUMNS = [
  'id', 'account_id', 'product', 'model_id', 'name', 'language', 'status', 'error_code', 'error_message', 'params_json',
  'input_json', 'duration_seconds', 'result_json', 'progress', 'batch_id', 'attempts', 'cancel_requested', 'pause_requested',
  'claimed_by', 'lease_expires_at', 'estimated_usd_micro', 'estimated_seconds', 'price_json', 'reserved_usd_micro', 'deadline_at',
  'created_at', 'started_at', 'finished_at', 'updated_at',
] as const satisfies readonly (keyof JobRow)[];

export const JOB_COLUMNS = `id, account_id, product, model_id, name, language, status, error_code, error_message, params_json, input_json, duration_seconds, result_json, progress, batch_id, attempts, cancel_requested, pause_requested, claimed_by, estimated_usd_micro, estimated_seconds, price_json, reserved_usd_micro, deadline_at, created_at, started_at, finished_at, updated_at, input_purged_at, lease_expires_at`;

const INSERT = `INSERT INTO jobs (${INSERT_COLUMNS.join(', ')}) VALUES (${INSERT_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`;
const GET = `SELECT ${JOB_COLUMNS} FROM jobs WHERE id = $1`;
const GET_WITHOUT_RESULT = `SELECT ${JOB_COLUMNS.replace('result_json', 'NULL::text AS result_json')} FROM jobs WHERE id = $1`;
// The result is parsed where it is (PostgreSQL 15 has no IS JSON: an unparsable result reads as no facts).
const RESULT_FACTS = `SELECT CASE WHEN jsonb_typeof(j -> 'language') = 'string' THEN j ->> 'language' END AS language,
    CASE WHEN jsonb_typeof(j -> 'duration') = 'number' THEN (j ->> 'duration')::double precision END AS duration
  FROM (SELECT voxdesk_try_jsonb(result_json) AS j FROM jobs WHERE id = $1) r`;
const STATUS_OF = 'SELECT status FROM jobs WHERE id = $1';
const NOT_PAUSED = `error_code IS DISTINCT FROM '${PAUSED}'`;
const QUEUED = `SELECT ${JOB_COLUMNS} FROM jobs WHERE status = 'queued' AND ${NOT_PAUSED} ORDER BY created_at, id LIMIT $1`;
const ANY_QUEUED = `SELECT 1 AS one FROM jobs WHERE status = 'queued' AND ${NOT_PAUSED} LIMIT 1`;
const QUEUED_AFTER = `SELECT ${JOB_COLUMNS} FROM jobs WHERE status = 'queued' AND ${NOT_PAUSED} AND (created_at, id) > ($1::text, $2::text)
  ORDER BY created_at, id LIMIT $3`;
const QUEUED_UNMARKED = `SELECT ${JOB_COLUMNS} FROM jobs WHERE status = 'queued' AND error_code IS NULL ORDER BY created_at, id LIMIT $1`;
/** A scheduling pass's read of the queue, inside its transaction: rows another node's pass holds are skipped. */
const CLAIMING = ' FOR UPDATE SKIP LOCKED';
const RUNNING = `SELECT ${JOB_COLUMNS} FROM jobs WHERE status = 'running' ORDER BY created_at, id`;
const RENEW = `UPDATE jobs SET lease_expires_at = $1 WHERE id = ANY($2::text[]) AND claimed_by = $3 AND status = 'running' RETURNING id`;
const LAPSED = `SELECT ${JOB_COLUMNS} FROM jobs WHERE status = 'running' AND lease_expires_at IS NOT NULL AND lease_expires_at < $1 ORDER BY created_at, id`;
const OVERDUE = `SELECT ${JOB_COLUMNS} FROM jobs WHERE status = 'queued' AND ${NOT_PAUSED} AND error_code IS DISTINCT FROM '${BUDGET_WAIT}'
  AND deadline_at IS NOT NULL AND deadline_at <= $1`;
const OF_BATCH = `SELECT ${JOB_COLUMNS} FROM jobs WHERE batch_id = $1 ORDER BY created_at, id`;
const PAGE = `SELECT ${JOB_COLUMNS} FROM jobs
  WHERE account_id = $1
    AND ($2::text IS NULL OR product = $2)
    AND ($3::text IS NULL OR status = $3)
    AND ($4::text IS NULL OR created_at < $4 OR (created_at = $4 AND id < $5::text))
  ORDER BY created_at DESC, id DESC LIMIT $6`;
const COUNTS = `SELECT status, error_code, COUNT(*) AS n FROM jobs
  WHERE (status = 'queued' OR status = 'running') AND ($1::text IS NULL OR account_id = $1)
  GROUP BY status, error_code`;
const INPUTS_TO_PURGE = `SELECT id, input_json FROM jobs
  WHERE input_purged_at IS NULL AND finished_at IS NOT NULL AND finished_at < $1 ORDER BY finished_at LIMIT $2`;
const MARK_PURGED = 'UPDATE jobs SET input_purged_at = $1 WHERE id = $2';

/** One UPDATE per set of columns (the SQLite repository's rule: only what changed is written). */
const writeStatements = new Map<string, string>();
function writeStatement(columns: readonly string[]): string {
  const key = columns.join(',');
  let text = writeStatements.get(key);
  if (!text) {
    for (const column of columns) if (!MUTABLE_COLUMNS.has(column)) throw new Error(`jobs.${column} is not a mutable column`);
    const set = columns.map((column, i) => `${column} = $${i + 3}`).join(', ');
    text = `UPDATE jobs SET ${set} WHERE id = $1 AND status = $2`;
    writeStatements.set(key, text);
  }
  return text;
}

export function createPgJobsRepo(sql: Sql, shared: PgShared): Async<JobsRepo> {
  const { unmarked } = shared;
  const claiming = (text: string): string => (sql.inTransaction ? text + CLAIMING : text);
  /**
   * Moves the unmarked stamp now and again when the write commits: a scheduler pass on another connection of this
   * store between the two finds nothing yet, and must not take the stamp it saw as "nothing to find".
   */
  const moveUnmarked = (): void => {
    unmarked.n++;
    sql.afterCommit(() => unmarked.n++);
  };
  return {
    async insert(row) {
      await sql.run(INSERT, INSERT_COLUMNS.map((column) => row[column] ?? null));
      if (row.status === 'queued' && row.error_code === null) moveUnmarked();
    },
    get: async (id) => sql.one<JobRow>(GET, [id]),
    getWithoutResult: async (id) => sql.one<JobRow>(GET_WITHOUT_RESULT, [id]),
    async resultFacts(id) {
      const facts = await sql.one<{ language: string | null; duration: number | null }>(RESULT_FACTS, [id]);
      return { language: facts?.language ?? null, duration: facts?.duration ?? null };
    },
    async write(id, expected, values) {
      const columns = Object.keys(values).filter((column) => values[column as keyof JobMutable] !== undefined);
      if (columns.length === 0) return (await sql.one<{ status: JobStatus }>(STATUS_OF, [id]))?.status === expected;
      const text = writeStatement(columns);
      const written = (await sql.run(text, [id, expected, ...columns.map((column) => values[column as keyof JobMutable])])) === 1;
      if (values.status === 'queued' || (values.status === undefined && values.error_code === null)) moveUnmarked();
      return written;
    },
    queued: (limit) => sql.all<JobRow>(claiming(QUEUED), [limit]),
    anyQueued: async () => (await sql.one(ANY_QUEUED)) !== undefined,
    queuedAfter: (after, limit) =>
      after ? sql.all<JobRow>(claiming(QUEUED_AFTER), [after.created_at, after.id, limit]) : sql.all<JobRow>(claiming(QUEUED), [limit]),
    queuedUnmarked: (limit) => sql.all<JobRow>(claiming(QUEUED_UNMARKED), [limit]),
    unmarkedStamp: async () => unmarked.n,
    running: () => sql.all<JobRow>(RUNNING),
    async renewLeases(instanceId, ids, untilIso) {
      if (ids.length === 0) return [];
      const held = new Set((await sql.write<{ id: string }>(RENEW, [untilIso, ids, instanceId])).map((r) => r.id));
      return ids.filter((id) => held.has(id));
    },
    lapsedLeases: (nowIso) => sql.all<JobRow>(LAPSED, [nowIso]),
    overdue: (nowIso) => sql.all<JobRow>(OVERDUE, [nowIso]),
    ofBatch: (batchId) => sql.all<JobRow>(OF_BATCH, [batchId]),
    page: (q) => sql.all<JobRow>(PAGE, [q.accountId, q.product, q.status, q.after?.created_at ?? null, q.after?.id ?? null, q.limit]),
    countByStatus: (accountId) => sql.all<{ status: JobStatus; error_code: string | null; n: number }>(COUNTS, [accountId]),
    inputsToPurge: (beforeIso, limit) => sql.all<Pick<JobRow, 'id' | 'input_json'>>(INPUTS_TO_PURGE, [beforeIso, limit]),
    markInputPurged: async (id, atIso) => void (await sql.run(MARK_PURGED, [atIso, id])),
    dataVersion: async () => shared.othersVersion(),
  };
}
