/**
 * Reading and steering jobs: GET /v1/{product}/{job_id}, GET /v1/{product}/batch/{batch_id} (spec), and the
 * documented extensions: cancel a job or batch, retry a job, list jobs and batches, the queue summary. A job is
 * found only on its own product route and only by its own account; anything else is 404 not_found.
 */
import { Hono, type Context } from 'hono';
import { ApiError } from '../../common/errors.js';
import { JOB_STATUSES, type JobStatus } from '../../common/job-states.js';
import { isJobProduct, isProduct, type JobProduct, type Product } from '../../common/products.js';
import type { ListQuery } from '../../jobs/engine/job-service-types.js';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../app-env.js';
import { numberQuery, queryOf, singleQuery } from '../http/query-params.js';
import { frozenJsonAnswer } from '../http/frozen-json.js';

/** Page size of GET /v1/jobs and /v1/batches when no limit is given; most a page may hold. */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

function productOf(c: Context<AppEnv>): Product {
  const product = c.req.param('product') ?? '';
  if (!isProduct(product)) throw new ApiError('not_found', `no product "${product}"`);
  return product;
}

/** A job's product in its path: a spec product, or an extension's job kind (`transcript-ai`). */
function jobProductOf(c: Context<AppEnv>): JobProduct {
  const product = c.req.param('product') ?? '';
  if (!isJobProduct(product)) throw new ApiError('not_found', `no product "${product}"`);
  return product;
}

function found<T>(value: T | undefined, what: string, id: string): T {
  if (value === undefined) throw new ApiError('not_found', `no ${what} ${id} on this route`);
  return value;
}

/** What `act` answers for the caller's batch in the path (its product and id); 404 not_found when it has none. */
async function onBatch<T>(c: Context<AppEnv>, act: (accountId: string, product: Product, id: string) => Promise<T | undefined>): Promise<T> {
  const id = c.req.param('batchId') ?? '';
  return found(await act(c.get('owner').accountId, productOf(c), id), 'batch', id);
}

/** What `act` answers for the caller's job in the path (its product and id); 404 not_found when it has none. */
async function onJob<T>(c: Context<AppEnv>, act: (accountId: string, product: JobProduct, id: string) => Promise<T | undefined>): Promise<T> {
  const id = c.req.param('jobId') ?? '';
  return found(await act(c.get('owner').accountId, jobProductOf(c), id), 'job', id);
}

export function listQuery(c: Context<AppEnv>): ListQuery {
  const params = queryOf(c.req.url);
  const query: ListQuery = { limit: numberQuery(params, 'limit', { min: 1, max: MAX_PAGE_SIZE, integer: true }) ?? DEFAULT_PAGE_SIZE };
  const cursor = singleQuery(params, 'cursor');
  if (cursor) query.cursor = cursor;
  const product = singleQuery(params, 'product');
  if (product !== undefined && product !== '') {
    if (!isJobProduct(product)) throw new ApiError('invalid_request', `unknown product "${product}"`);
    query.product = product;
  }
  const status = singleQuery(params, 'status');
  if (status !== undefined && status !== '') {
    if (!(JOB_STATUSES as readonly string[]).includes(status)) throw new ApiError('invalid_request', `status must be one of ${JOB_STATUSES.join(', ')}`);
    query.status = status as JobStatus;
  }
  return query;
}

/** Mounted after the product POSTs and the export route: `/v1/:product/:jobId` would shadow more specific paths. */
export function jobRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/v1/jobs', async (c) => c.json({ object: 'list', ...(await deps.jobs.listJobs(c.get('owner').accountId, listQuery(c))) }));
  app.get('/v1/batches', async (c) => c.json({ object: 'list', ...(await deps.jobs.listBatches(c.get('owner').accountId, listQuery(c))) }));
  app.get('/v1/queue', async (c) => c.json(await deps.jobs.queueSummary(c.get('owner').accountId)));

  app.get('/v1/:product/batch/:batchId', async (c) => c.json(await onBatch(c, (account, product, id) => deps.jobs.getBatch(account, product, id))));
  app.post('/v1/:product/batch/:batchId/cancel', async (c) => c.json(await onBatch(c, (account, product, id) => deps.jobs.cancelBatch(account, product, id))));
  // The view is the cache's frozen one while the job stands still: its JSON is made once (http/frozen-json.ts).
  app.get('/v1/:product/:jobId', async (c) => frozenJsonAnswer(c, await onJob(c, (account, product, id) => deps.jobs.getJob(account, product, id))));
  app.post('/v1/:product/:jobId/cancel', async (c) => c.json(await onJob(c, (account, product, id) => deps.jobs.cancelJob(account, product, id))));
  app.post('/v1/:product/:jobId/retry', async (c) => c.json(await onJob(c, (account, product, id) => deps.jobs.retryJob(account, product, id))));
  return app;
}
