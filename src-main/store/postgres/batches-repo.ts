/**
 * Batches and their items on PostgreSQL, with the semantics of store/batches-repo.ts. Across nodes at READ COMMITTED:
 * - `lockAccount` takes a transaction-scoped advisory lock on the account (`pg_advisory_xact_lock`): the intake
 *   takes it before `countOpen` and holds it until its `insert` commits, so two nodes cannot both see one open batch
 *   and add a third (the two-open-batches rule).
 * - `attachJob` is a compare-and-set (`… AND job_id IS NULL`): of two nodes creating a pending item's job, one links
 *   it; the other is told false (its transaction is rolled back by the caller).
 * - `complete` is a compare-and-set on `status = 'open'`: true on one node only.
 * - `insert` and `insertItem` fail on a taken key (primary keys); `setPendingReason` and `reserve` are plain updates
 *   of one row (the later commit's value stays), made by whoever holds the batch's work.
 */
import type { Product } from '../../common/products.js';
import type { BatchItemRow, BatchesRepo, BatchRow } from '../batches-repo.js';
import type { Async } from '../store.js';
import { LOCK_SPACE } from './shared.js';
import type { Sql } from './sql.js';

const BATCH_COLUMNS = [
  'id', 'account_id', 'product', 'model_id', 'params_json', 'status', 'file_count', 'language', 'pending_code', 'pending_message',
  'price_json', 'estimated_usd_micro', 'reserved_usd_micro', 'reserved_at', 'created_at', 'finished_at',
] as const satisfies readonly (keyof BatchRow)[];
const ITEM_COLUMNS = ['batch_id', 'position', 'name', 'job_id', 'pending_input_json', 'estimated_seconds'] as const satisfies readonly (keyof BatchItemRow)[];
const SELECT_BATCH = `SELECT ${BATCH_COLUMNS.join(', ')} FROM batches`;
const SELECT_ITEM = `SELECT ${ITEM_COLUMNS.join(', ')} FROM batch_items`;
const placeholders = (n: number): string => Array.from({ length: n }, (_, i) => `$${i + 1}`).join(', ');

const LOCK_ACCOUNT = `SELECT pg_advisory_xact_lock(${LOCK_SPACE.accountBatches}, hashtext($1::text))`;
const INSERT = `INSERT INTO batches (${BATCH_COLUMNS.join(', ')}) VALUES (${placeholders(BATCH_COLUMNS.length)})`;
const INSERT_ITEM = `INSERT INTO batch_items (${ITEM_COLUMNS.join(', ')}) VALUES (${placeholders(ITEM_COLUMNS.length)})`;
const GET = `${SELECT_BATCH} WHERE id = $1`;
const ITEMS = `${SELECT_ITEM} WHERE batch_id = $1 ORDER BY position`;
const PENDING_ITEMS = `${SELECT_ITEM} WHERE batch_id = $1 AND job_id IS NULL ORDER BY position`;
const WITH_PENDING = `SELECT b.id FROM batches b
  WHERE b.status = 'open' AND EXISTS (SELECT 1 FROM batch_items bi WHERE bi.batch_id = b.id AND bi.job_id IS NULL)
  ORDER BY b.created_at, b.id LIMIT $1`;
const COUNT_PENDING = `SELECT COUNT(*) AS n FROM batch_items bi JOIN batches b ON b.id = bi.batch_id
  WHERE bi.job_id IS NULL AND ($1::text IS NULL OR b.account_id = $1)`;
const ATTACH = 'UPDATE batch_items SET job_id = $1, pending_input_json = NULL WHERE batch_id = $2 AND position = $3 AND job_id IS NULL';
const SET_REASON = 'UPDATE batches SET pending_code = $1, pending_message = $2 WHERE id = $3';
const RESERVE = 'UPDATE batches SET reserved_usd_micro = $1, reserved_at = $2 WHERE id = $3';
const COUNT_OPEN = "SELECT COUNT(*) AS n FROM batches WHERE account_id = $1 AND status = 'open'";
const COMPLETE = "UPDATE batches SET status = 'complete', finished_at = $1, pending_code = NULL, pending_message = NULL WHERE id = $2 AND status = 'open'";
const PAGE = `${SELECT_BATCH}
  WHERE account_id = $1
    AND ($2::text IS NULL OR product = $2)
    AND ($3::text IS NULL OR created_at < $3 OR (created_at = $3 AND id < $4::text))
  ORDER BY created_at DESC, id DESC LIMIT $5`;

export function createPgBatchesRepo(sql: Sql): Async<BatchesRepo> {
  return {
    async lockAccount(accountId) {
      // Outside a transaction the lock would end with its statement: it only means something inside one.
      if (sql.inTransaction) await sql.one(LOCK_ACCOUNT, [accountId]);
    },
    insert: async (row) => void (await sql.run(INSERT, BATCH_COLUMNS.map((c) => row[c] ?? null))),
    insertItem: async (item) => void (await sql.run(INSERT_ITEM, ITEM_COLUMNS.map((c) => item[c] ?? null))),
    get: (id) => sql.one<BatchRow>(GET, [id]),
    items: (batchId) => sql.all<BatchItemRow>(ITEMS, [batchId]),
    pendingItems: (batchId) => sql.all<BatchItemRow>(PENDING_ITEMS, [batchId]),
    withPendingItems: async (limit) => (await sql.all<{ id: string }>(WITH_PENDING, [limit])).map((r) => r.id),
    countPending: async (accountId) => (await sql.one<{ n: number }>(COUNT_PENDING, [accountId]))?.n ?? 0,
    attachJob: async (batchId, position, jobId) => (await sql.run(ATTACH, [jobId, batchId, position])) === 1,
    setPendingReason: async (batchId, code, message) => void (await sql.run(SET_REASON, [code, message, batchId])),
    reserve: async (batchId, micro, atIso) => void (await sql.run(RESERVE, [micro, atIso, batchId])),
    countOpen: async (accountId) => (await sql.one<{ n: number }>(COUNT_OPEN, [accountId]))?.n ?? 0,
    complete: async (id, finishedAt) => (await sql.run(COMPLETE, [finishedAt, id])) === 1,
    page: (accountId: string, product: Product | null, after, limit) =>
      sql.all<BatchRow>(PAGE, [accountId, product, after?.created_at ?? null, after?.id ?? null, limit]),
  };
}
