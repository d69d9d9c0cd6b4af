/** Batches and their items. Counts are never stored: they are computed from item statuses (common countItems). */
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
  created_at: string;
  finished_at: string | null;
}

export interface BatchItemRow {
  batch_id: string;
  position: number;
  name: string | null;
  job_id: string | null;
}

export interface BatchesRepo {
  insert(row: BatchRow): void;
  insertItem(item: BatchItemRow): void;
  get(id: string): BatchRow | undefined;
  items(batchId: string): BatchItemRow[];
  countOpen(accountId: string): number;
  complete(id: string, finishedAt: string): boolean;
  page(accountId: string, product: Product | null, after: PageKey | null, limit: number): BatchRow[];
}

export function createBatchesRepo(db: Db): BatchesRepo {
  const insert = db.prepare(`INSERT INTO batches (id, account_id, product, model_id, params_json, status, file_count,
      created_at, finished_at)
    VALUES (@id, @account_id, @product, @model_id, @params_json, @status, @file_count, @created_at, @finished_at)`);
  const insertItem = db.prepare(
    'INSERT INTO batch_items (batch_id, position, name, job_id) VALUES (@batch_id, @position, @name, @job_id)',
  );
  const get = db.prepare<[string], BatchRow>('SELECT * FROM batches WHERE id = ?');
  const items = db.prepare<[string], BatchItemRow>('SELECT * FROM batch_items WHERE batch_id = ? ORDER BY position');
  const countOpen = db.prepare<[string], { n: number }>(
    "SELECT COUNT(*) AS n FROM batches WHERE account_id = ? AND status = 'open'",
  );
  const complete = db.prepare(
    "UPDATE batches SET status = 'complete', finished_at = ? WHERE id = ? AND status = 'open'",
  );
  const page = db.prepare<Record<string, unknown>, BatchRow>(`SELECT * FROM batches
    WHERE account_id = @accountId
      AND (@product IS NULL OR product = @product)
      AND (@afterAt IS NULL OR created_at < @afterAt OR (created_at = @afterAt AND id < @afterId))
    ORDER BY created_at DESC, id DESC LIMIT @limit`);
  return {
    insert: (row) => void insert.run(row),
    insertItem: (item) => void insertItem.run(item),
    get: (id) => get.get(id),
    items: (batchId) => items.all(batchId),
    countOpen: (accountId) => countOpen.get(accountId)?.n ?? 0,
    complete: (id, finishedAt) => complete.run(finishedAt, id).changes === 1,
    page: (accountId, product, after, limit) =>
      page.all({ accountId, product, afterAt: after?.created_at ?? null, afterId: after?.id ?? null, limit }),
  };
}
