/**
 * The library search rows of finished transcriptions, written after their result rather than with it. A job that
 * succeeds is listed as pending (transcripts.ts recordOriginal, migration 017); this writes the rows of its latest
 * revision and of its name, for many jobs in one transaction, because an FTS5 insert flushes a new index segment at
 * every commit: per job it cost about a tenth of the job engine's time for a trivial job (bench/jobs-throughput.ts).
 *
 * The job engine indexes in batches on its scheduler's timer (within about a second of a result once no run is
 * active; while runs keep going, at least every searchIndexDelayMs, job-service-options.ts), the maintenance
 * sweep catches up fully, and a search catches up before it reads (transcripts.ts), so a search never misses a
 * transcript finished before it began. A long transcript is written a slice per transaction (INDEX_ROWS_PER_TX);
 * an edit of a job still pending replaces the rows of the slices already written and leaves the rest to the
 * indexer, which reads the latest revision.
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

/**
 * Rows one transaction of the indexer writes at most. A ten-hour transcript has thousands of segments, and each FTS
 * insert costs tens of microseconds (more on a busy machine): written whole, it held the write lock and the service
 * thread for most of a second, so it is written a slice per transaction, with the event loop free between slices.
 */
export const INDEX_ROWS_PER_TX = 250;

/**
 * Per store, the revision being written in slices, parsed: its JSON (megabytes for a long transcript) is parsed once,
 * not once a slice. Keyed by job and revision number, so an edit between slices is read afresh.
 */
const slicing = new WeakMap<Store, { key: string; segments: readonly RevisionSegment[] }>();

/** The segments of the job's latest revision (read and parsed only when not held already); null without one. */
async function latestSegments(store: Store, repos: StoreRepos, jobId: string): Promise<readonly RevisionSegment[] | null> {
  const number = await repos.revisions.latestNumber(jobId);
  if (number === null) return null;
  const key = `${jobId}#${number}`;
  const held = slicing.get(store);
  if (held?.key === key) return held.segments;
  const latest = await repos.revisions.latest(jobId);
  if (!latest) return null;
  const segments = JSON.parse(latest.segments_json) as RevisionSegment[];
  slicing.set(store, { key: `${jobId}#${latest.revision}`, segments });
  return segments;
}

/**
 * Inside a write transaction: up to `budget` more of the job's rows from its latest revision, going on after the rows
 * it has (its name row first). Off the list once all are written. How many rows it wrote.
 */
async function indexJob(store: Store, repos: StoreRepos, jobId: string, budget: number): Promise<number> {
  const job = await repos.jobs.getWithoutResult(jobId);
  const segments = job ? await latestSegments(store, repos, jobId) : null;
  if (!job || !segments) {
    await repos.search.clearPending(jobId);
    return 0;
  }
  const upTo = await repos.search.indexedUpTo(jobId);
  const name = jobName(job);
  const rows: SearchRowInput[] =
    upTo === null && name
      ? [{ job_id: job.id, account_id: job.account_id, job_created_at: job.created_at, job_name: name, segment_idx: null, start_seconds: null, end_seconds: null, body: name }]
      : [];
  const after = upTo ?? -1;
  const rest = searchRows(job, segments.filter((s) => s.index > after));
  const slice = rest.slice(0, Math.max(0, budget - rows.length));
  await repos.search.insert([...rows, ...slice]);
  if (slice.length === rest.length) {
    await repos.search.clearPending(jobId);
    if (slicing.get(store)?.key.startsWith(`${jobId}#`)) slicing.delete(store);
  }
  return rows.length + slice.length;
}

/**
 * One transaction of the indexer: the rows of pending jobs, oldest first, at most `limit` jobs and about
 * INDEX_ROWS_PER_TX rows. Whether jobs may still be pending (the caller goes on after letting the event loop run).
 */
export function indexPending(store: Store, limit = INDEX_BATCH): Promise<boolean> {
  return store.tx(async ({ repos }) => {
    const ids = await repos.search.pending(limit);
    let budget = INDEX_ROWS_PER_TX;
    for (const id of ids) {
      if (budget <= 0) return true;
      budget -= await indexJob(store, repos, id, budget);
    }
    return ids.length === limit || budget <= 0;
  });
}

/**
 * Inside the caller's write transaction: the index follows an edit of the job's segments `segmentIdxs` (now `rows`).
 * A job still waiting for its rows gets only those of its already written slices replaced; the indexer writes the
 * rest from the latest revision when it comes to them.
 */
export async function reindexSegments(repos: StoreRepos, jobId: string, segmentIdxs: readonly number[], rows: readonly SearchRowInput[]): Promise<void> {
  if (!(await repos.search.isPending(jobId))) {
    await repos.search.replaceSegments(jobId, segmentIdxs, rows);
    return;
  }
  const upTo = await repos.search.indexedUpTo(jobId);
  if (upTo === null || upTo < 0) return;
  const written = (idx: number | null): boolean => idx !== null && idx <= upTo;
  await repos.search.replaceSegments(jobId, segmentIdxs.filter(written), rows.filter((r) => written(r.segment_idx)));
}

/** Until no job is pending: a slice per transaction, the event loop free between them. */
export async function catchUpSearchIndex(store: Store): Promise<void> {
  while ((await store.repos.search.anyPending()) && (await indexPending(store))) {
    await new Promise((resolve) => setImmediate(resolve));
  }
}
