/**
 * The job-history sweep's reads and deletions on PostgreSQL, with the semantics of store/history-repo.ts: the tables
 * that reference jobs and batches are found from the catalogue (pg_constraint) once per store, the ledger and jobs
 * left out, so a table a later migration adds cannot make the sweep fail on a foreign key. Deletions run inside the
 * caller's transaction. Two nodes sweeping at once delete the same rows: the second's DELETEs find nothing (the
 * first's row locks make it wait, then the rows are gone), so nothing fails.
 */
import { TERMINAL_STATUSES } from '../../common/job-states.js';
import type { HistoryJobRow, HistoryRepo } from '../history-repo.js';
import type { Async } from '../store.js';
import type { PgShared } from './shared.js';
import type { Sql } from './sql.js';

const TERMINAL_SQL = TERMINAL_STATUSES.map((s) => `'${s}'`).join(', ');
const KEPT_TABLES = new Set(['ledger', 'jobs']);

const OLD_JOBS = `SELECT id, input_json, input_purged_at FROM jobs
  WHERE batch_id IS NULL AND finished_at IS NOT NULL AND finished_at < $1 AND status IN (${TERMINAL_SQL})
  ORDER BY finished_at LIMIT $2`;
const OLD_BATCHES = `SELECT b.id FROM batches b
  WHERE b.status = 'complete' AND b.finished_at IS NOT NULL AND b.finished_at < $1
    AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.batch_id = b.id
                    AND (j.status NOT IN (${TERMINAL_SQL}) OR j.finished_at IS NULL OR j.finished_at >= $1))
  ORDER BY b.finished_at LIMIT $2`;
const BATCH_JOBS = 'SELECT id, input_json, input_purged_at FROM jobs WHERE batch_id = $1';
const LIVE_ARTIFACTS = 'SELECT path FROM artifacts WHERE job_id = $1 AND deleted_at IS NULL';
const DROP_KEYS = 'DELETE FROM idempotency_keys WHERE resource_type = $1 AND resource_id = $2';
const DROP_JOB = 'DELETE FROM jobs WHERE id = $1';
const DROP_BATCH = 'DELETE FROM batches WHERE id = $1';
/** Single-column foreign keys into `table` in the store's schema: (referencing table, its column). */
const REFERENCING = `SELECT c.conrelid::regclass::text AS tbl, quote_ident(a.attname) AS col, r.relname AS name
  FROM pg_constraint c
  JOIN pg_class r ON r.oid = c.conrelid
  JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
  WHERE c.contype = 'f' AND c.confrelid = to_regclass($1) AND array_length(c.conkey, 1) = 1
  ORDER BY r.relname, a.attname`;

async function dependents(sql: Sql, table: string): Promise<string[]> {
  const rows = await sql.all<{ tbl: string; col: string; name: string }>(REFERENCING, [table]);
  return rows.filter((r) => !KEPT_TABLES.has(r.name)).map((r) => `DELETE FROM ${r.tbl} WHERE ${r.col} = $1`);
}

export function createPgHistoryRepo(sql: Sql, shared: PgShared): Async<HistoryRepo> {
  const references = (): Promise<{ jobs: string[]; batches: string[] }> => {
    shared.references ??= Promise.all([dependents(sql, 'jobs'), dependents(sql, 'batches')]).then(([jobs, batches]) => ({ jobs, batches }));
    shared.references.catch(() => (shared.references = null));
    return shared.references;
  };
  return {
    oldJobs: (beforeIso, limit) => sql.all<HistoryJobRow>(OLD_JOBS, [beforeIso, limit]),
    oldBatches: async (beforeIso, limit) => (await sql.all<{ id: string }>(OLD_BATCHES, [beforeIso, limit])).map((r) => r.id),
    batchJobs: (batchId) => sql.all<HistoryJobRow>(BATCH_JOBS, [batchId]),
    liveArtifactPaths: async (jobId) => (await sql.all<{ path: string }>(LIVE_ARTIFACTS, [jobId])).map((r) => r.path),
    deleteJob: (jobId) =>
      sql.atomic(async (t) => {
        for (const statement of (await references()).jobs) await t.run(statement, [jobId]);
        await t.run(DROP_KEYS, ['job', jobId]);
        await t.run(DROP_JOB, [jobId]);
      }),
    deleteBatch: (batchId) =>
      sql.atomic(async (t) => {
        for (const statement of (await references()).batches) await t.run(statement, [batchId]);
        await t.run(DROP_KEYS, ['batch', batchId]);
        await t.run(DROP_BATCH, [batchId]);
      }),
  };
}
