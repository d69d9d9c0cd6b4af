/**
 * Batches and their items. Counts are never stored: they are computed from item statuses (common countItems). An
 * item is `pending` while it has no job (job_id NULL, migration 009): it keeps its input until its job is created.
 */
import type { BatchStatus } from '../common/job-states.js';
import type { Product } from '../common/products.js';
import type { Db } from './db.js';
import type { PageKey } from './jobs-repo.js';

export interface BatchRow {
  id: string;
  account_id: string;
  product: Product;
  model_id: string;
  params_json: string;
  status: BatchStatus;
  file_count: number;
  /** The language sent with the batch: every item's job gets it. */
  language: string | null;
  /** Why the batch's pending items wait (a waiting code), and in words; null when nothing holds them. */
  pending_code: string | null;
  pending_message: string | null;
  /** The price it was accepted at (a PriceSnapshot as JSON, migration 010); its request fee is charged from it. */
  price_json: string | null;
  /** The request fee plus every item's estimate (micro-dollars), priced when accepted. */
  estimated_usd_micro: number | null;
  /** Hosted batches: the estimate held against the monthly spending cap as a whole, from the time it was placed. */
  reserved_usd_micro: number | null;
  reserved_at: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface BatchItemRow {
  batch_id: string;
  position: number;
  name: string | null;
  /** Null while the item is pending. */
  job_id: string | null;
  /** The pending item's input (EngineInput as JSON); null once its job exists. */
  pending_input_json: string | null;
  /** The seconds its estimate is for, kept for its job (null: not known before it runs). */
  estimated_seconds: number | null;
}

export interface BatchesRepo {
  /**
   * Inside a write transaction, before counting an account's open batches to add one: makes count-then-insert one
   * step for every writer. SQLite: nothing to do (an IMMEDIATE transaction has the database to itself); PostgreSQL:
   * a transaction-scoped advisory lock on the account.
   */
  lockAccount(accountId: string): void;
  insert(row: BatchRow): void;
  insertItem(item: BatchItemRow): void;
  get(id: string): BatchRow | undefined;
  items(batchId: string): BatchItemRow[];
  /** The batch's items that have no job yet, in position order. */
  pendingItems(batchId: string): BatchItemRow[];
  /** Ids of open batches with pending items, oldest first. */
  withPendingItems(limit: number): string[];
  /** Pending items of every batch of the account, or of all accounts (null). */
  countPending(accountId: string | null): number;
  /** Links a pending item to the job just created for it; false when the item was not pending. */
  attachJob(batchId: string, position: number, jobId: string): boolean;
  /** Why the pending items wait (null, null: nothing holds them). */
  setPendingReason(batchId: string, code: string | null, message: string | null): void;
  /** Holds `micro` against the spending cap for the batch as a whole (hosted batches, when placing begins). */
  reserve(batchId: string, micro: number, atIso: string): void;
  countOpen(accountId: string): number;
  complete(id: string, finishedAt: string): boolean;
  page(accountId: string, product: Product | null, after: PageKey | null, limit: number): BatchRow[];
}

export function createBatchesRepo(db: Db): BatchesRepo {
  const insert = db.prepare(`INSERT INTO batches (id, account_id, product, model_id, params_json, status, file_count,
      language, pending_code, pending_message, price_json, estimated_usd_micro, reserved_usd_micro, reserved_at, created_at,
      finished_at)
    VALUES (@id, @account_id, @product, @model_id, @params_json, @status, @file_count, @language, @pending_code,
      @pending_message, @price_json, @estimated_usd_micro, @reserved_usd_micro, @reserved_at, @created_at, @finished_at)`);
  const insertItem = db.prepare(`INSERT INTO batch_items (batch_id, position, name, job_id, pending_input_json, estimated_seconds)
    VALUES (@batch_id, @position, @name, @job_id, @pending_input_json, @estimated_seconds)`);
  const get = db.prepare<[string], BatchRow>('SELECT * FROM batches WHERE id = ?');
  const items = db.prepare<[string], BatchItemRow>('SELECT * FROM batch_items WHERE batch_id = ? ORDER BY position');
  const pendingItems = db.prepare<[string], BatchItemRow>(
    'SELECT * FROM batch_items WHERE batch_id = ? AND job_id IS NULL ORDER BY position',
  );
  // Asked on every scheduling pass: the partial index of pending items answers "none" at once (the query below
  // scans the open batches and sorts them).
  const anyPending = db.prepare<[], number>('SELECT 1 FROM batch_items WHERE job_id IS NULL LIMIT 1').pluck();
  const withPending = db.prepare<[number], { id: string }>(`SELECT b.id FROM batches b
    WHERE b.status = 'open' AND EXISTS (SELECT 1 FROM batch_items bi WHERE bi.batch_id = b.id AND bi.job_id IS NULL)
    ORDER BY b.created_at, b.id LIMIT ?`);
  const countPending = db.prepare<{ accountId: string | null }, { n: number }>(`SELECT COUNT(*) AS n FROM batch_items bi
    JOIN batches b ON b.id = bi.batch_id WHERE bi.job_id IS NULL AND (@accountId IS NULL OR b.account_id = @accountId)`);
  const attach = db.prepare<[string, string, number]>(
    'UPDATE batch_items SET job_id = ?, pending_input_json = NULL WHERE batch_id = ? AND position = ? AND job_id IS NULL',
  );
  const setReason = db.prepare<[string | null, string | null, string]>('UPDATE batches SET pending_code = ?, pending_message = ? WHERE id = ?');
  const reserve = db.prepare<[number, string, string]>('UPDATE batches SET reserved_usd_micro = ?, reserved_at = ? WHERE id = ?');
  const countOpen = db.prepare<[string], { n: number }>(
    "SELECT COUNT(*) AS n FROM batches WHERE account_id = ? AND status = 'open'",
  );
  const complete = db.prepare(
    "UPDATE batches SET status = 'complete', finished_at = ?, pending_code = NULL, pending_message = NULL WHERE id = ? AND status = 'open'",
  );
  const page = db.prepare<Record<string, unknown>, BatchRow>(`SELECT * FROM batches
    WHERE account_id = @accountId
      AND (@product IS NULL OR product = @product)
      AND (@afterAt IS NULL OR created_at < @afterAt OR (created_at = @afterAt AND id < @afterId))
    ORDER BY created_at DESC, id DESC LIMIT @limit`);
  return {
    lockAccount: () => {},
    insert: (row) => void insert.run(row),
    insertItem: (item) => void insertItem.run(item),
    get: (id) => get.get(id),
    items: (batchId) => items.all(batchId),
    pendingItems: (batchId) => pendingItems.all(batchId),
    withPendingItems: (limit) => (anyPending.get() === undefined ? [] : withPending.all(limit).map((r) => r.id)),
    countPending: (accountId) => countPending.get({ accountId })?.n ?? 0,
    attachJob: (batchId, position, jobId) => attach.run(jobId, batchId, position).changes === 1,
    setPendingReason: (batchId, code, message) => void setReason.run(code, message, batchId),
    reserve: (batchId, micro, atIso) => void reserve.run(micro, atIso, batchId),
    countOpen: (accountId) => countOpen.get(accountId)?.n ?? 0,
    complete: (id, finishedAt) => complete.run(finishedAt, id).changes === 1,
    page: (accountId, product, after, limit) =>
      page.all({ accountId, product, afterAt: after?.created_at ?? null, afterId: after?.id ?? null, limit }),
  };
}
