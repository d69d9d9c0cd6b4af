/**
 * What the job engine answers without changing anything: a job (served from the view cache while nothing was
 * written), a batch, a transcription's committed segments and recording, the lists, the queue's summary, an
 * artifact by its token. Another account's job, or one of another product, is undefined (404 upstream).
 */
import type { Batch, Job, QueueSummary, SegmentList } from '../../common/api-types.js';
import { isProduct, type JobProduct, type Product } from '../../common/products.js';
import { toFound, type FoundArtifact } from '../../store/artifacts-repo.js';
import type { JobRow } from '../../store/jobs-repo.js';
import type { LedgerEntry } from '../../store/ledger-repo.js';
import { segmentView } from '../transcripts/transcript-segments.js';
import { decodeCursor, encodeCursor, pageLimit } from './cursor.js';
import type { JobCore } from './job-core.js';
import { jobRecording, type JobRecording } from './job-recording.js';
import type { ListQuery } from './job-service-types.js';
import { createJobViewCache } from './job-view-cache.js';

export function createQueries(core: JobCore) {
  const { store, views, options } = core;
  const { repos } = store;
  const jobViews = createJobViewCache(store.changes, options.publicBaseUrl);

  async function ownRow(accountId: string, product: string, jobId: string): Promise<JobRow | undefined> {
    const row = await repos.jobs.get(jobId);
    return row && row.account_id === accountId && row.product === product ? row : undefined;
  }

  return {
    ownRow,

    async jobView(id: string): Promise<Job> {
      const row = await repos.jobs.get(id);
      if (!row) throw new Error(`job ${id} vanished`);
      return views.job(row);
    },

    async batchView(id: string): Promise<Batch> {
      const row = await repos.batches.get(id);
      if (!row) throw new Error(`batch ${id} vanished`);
      return views.batch(row);
    },

    async getJob(accountId: string, product: JobProduct, jobId: string): Promise<Job | undefined> {
      // Polled over and over: served from job-view-cache.ts while nothing was written (the view is frozen).
      const found = await jobViews.get(jobId, async () => {
        const row = await repos.jobs.get(jobId);
        return row ? { accountId: row.account_id, view: await views.job(row) } : undefined;
      });
      return found && found.accountId === accountId && found.view.product === product ? found.view : undefined;
    },

    async getRecording(accountId: string, jobId: string): Promise<JobRecording | undefined> {
      const row = await ownRow(accountId, 'speech-to-text', jobId);
      return row ? jobRecording(repos, core.options.files, row) : undefined;
    },

    async getBatch(accountId: string, product: Product, batchId: string): Promise<Batch | undefined> {
      const row = await repos.batches.get(batchId);
      return row && row.account_id === accountId && row.product === product ? views.batch(row) : undefined;
    },

    async listSegments(accountId: string, jobId: string, after: number | null, limit: number): Promise<SegmentList | undefined> {
      const row = await ownRow(accountId, 'speech-to-text', jobId);
      if (!row) return undefined;
      const rows = await repos.segments.page(jobId, after ?? -1, limit);
      const last = rows[rows.length - 1];
      const next_after = last ? last.idx : after;
      const more = last ? await repos.segments.hasAfter(jobId, last.idx) : false;
      return {
        object: 'list',
        // A segment that held no words moves the cursor but is not shown.
        data: rows.filter((r) => r.text.trim() !== '').map(segmentView),
        next_after,
        complete: row.status === 'succeeded' && !more,
      };
    },

    async listJobs(accountId: string, query: ListQuery): Promise<{ data: Job[]; next_cursor: string | null }> {
      const limit = pageLimit(query.limit);
      const rows = await repos.jobs.page({ accountId, product: query.product ?? null, status: query.status ?? null, after: decodeCursor(query.cursor), limit: limit + 1 });
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      const data: Job[] = [];
      for (const row of page) data.push(await views.job(row));
      return { data, next_cursor: rows.length > limit && last ? encodeCursor(last) : null };
    },

    async listBatches(accountId: string, query: ListQuery): Promise<{ data: Batch[]; next_cursor: string | null }> {
      const limit = pageLimit(query.limit);
      // Extension job kinds (transcript-ai) have no batches.
      if (query.product !== undefined && !isProduct(query.product)) return { data: [], next_cursor: null };
      const rows = await repos.batches.page(accountId, query.product ?? null, decodeCursor(query.cursor), limit + 1);
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      const data: Batch[] = [];
      for (const row of page) data.push(await views.batch(row));
      return { data, next_cursor: rows.length > limit && last ? encodeCursor(last) : null };
    },

    async queueSummary(accountId?: string): Promise<QueueSummary> {
      const summary = { queued: 0, running: 0, pending: await repos.batches.countPending(accountId ?? null), waiting: {} as Record<string, number> };
      for (const { status, error_code, n } of await repos.jobs.countByStatus(accountId ?? null)) {
        if (status === 'running') summary.running += n;
        else {
          summary.queued += n;
          if (error_code) summary.waiting[error_code] = (summary.waiting[error_code] ?? 0) + n;
        }
      }
      return summary;
    },

    async findArtifact(token: string): Promise<FoundArtifact | undefined> {
      const row = await repos.artifacts.byToken(token);
      return row ? toFound(row, options.clock()) : undefined;
    },

    ledgerFor: (accountId: string): Promise<LedgerEntry[]> => repos.ledger.forAccount(accountId),
  };
}

export type Queries = ReturnType<typeof createQueries>;
