/**
 * The library search rows of finished transcriptions, written after their result rather than with it. A job that
 * succeeds is listed as pending (transcripts.ts recordOriginal, migration 017); this writes the rows of its latest
 * revision and of its name, for many jobs in one transaction, because an FTS5 insert flushes a new index segment at
 * every commit: per job it cost about a tenth of the job engine's time for a trivial job (bench/jobs-throughput.ts).
 *
 * The job engine indexes in batches on its scheduler's timer (within about a second of a result once no run is
 * active; while runs keep going, at least every searchIndexDelayMs, job-service-options.ts), the maintenance
 * sweep catches up fully, and a search catches up before it reads (transcripts.ts), so a search never misses a
 * transcript finished before it began. An edit of a job still pending leaves its rows to the indexer, which reads the
 * latest revision.
 */
import type { RevisionSegment } from '../../common/transcript-types.js';
import type { JobRow } from '../../store/jobs-repo.js';
import type { Store, StoreRepos } from '../../store/store.js';
import type { SearchRowInput } from '../../store/transcript-search-repo.js';

/** Jobs one transaction of the indexer takes at most (it holds the write lock while it runs). */
export const INDEX_BATCH = 50;

/** What people call a job: its name, else the file name it was uploaded as (batch items and uploads keep it). */
export function jobName(job: JobRow): string | null {
  if (job.name) return job.name;
  try {
    const input = JSON.parse(job.input_json) as { fileName?: unknown };
    return typeof input.fileName === 'string' && input.fileName ? input.fileName : null;
  } catch {
    return null;
  }
}

/** The search rows of these segments of the job (one per segment with text). */
export function searchRows(job: JobRow, segments: readonly RevisionSegment[]): SearchRowInput[] {
  const base = { job_id: job.id, account_id: job.account_id, job_created_at: job.created_at, job_name: jobName(job) };
  return segments
    .filter((s) => s.text !== '')
    .map((s) => ({ ...base, segment_idx: s.index, start_seconds: s.start, end_seconds: s.end, body: s.text }));
}

/** Inside a write transaction: the job's rows from its latest revision (none if it has rows already), off the list. */
async function indexJob(repos: StoreRepos, jobId: string): Promise<void> {
  const job = await repos.jobs.getWithoutResult(jobId);
  const latest = await repos.revisions.latest(jobId);
  if (job && latest && !(await repos.search.hasJob(jobId))) {
    const name = jobName(job);
    const nameRow: SearchRowInput[] = name
      ? [{ job_id: job.id, account_id: job.account_id, job_created_at: job.created_at, job_name: name, segment_idx: null, start_seconds: null, end_seconds: null, body: name }]
      : [];
    await repos.search.insert([...nameRow, ...searchRows(job, JSON.parse(latest.segments_json) as RevisionSegment[])]);
  }
  await repos.search.clearPending(jobId);
}

/** Writes the search rows of up to `limit` pending jobs in one transaction; how many it took off the list. */
export function indexPending(store: Store, limit = INDEX_BATCH): Promise<number> {
  return store.tx(async ({ repos }) => {
    const ids = await repos.search.pending(limit);
    for (const id of ids) await indexJob(repos, id);
    return ids.length;
  });
}

/** Until no job is pending (a batch per transaction). */
export async function catchUpSearchIndex(store: Store): Promise<void> {
  while ((await store.repos.search.anyPending()) && (await indexPending(store)) === INDEX_BATCH);
}
