/**
 * Job views remembered between reads while the database stands still. A client polling a job asks for the same view
 * over and over; building it read the job row, its artifacts (and for a transcription where it resumed) and made a
 * fresh object each time: most of what GET /v1/{product}/{job_id} cost (bench/api-overhead.ts). A view is kept with
 * the change stamp it was built under (the store's `changes`) and the base URL its artifact links were made with,
 * and is served again only while neither moved, so every write anywhere (this process, a worker, another instance)
 * makes the next read build it afresh. Views handed out are frozen: they are shared between callers.
 *
 * Its figure (issue 14 round 4, docs/benchmarks.md goal 1, with the remembered routes): a polled GET of a job went
 * from 1.60–1.81× to 1.35–1.43× the time of a bare Hono route at p50 (about 0.2 ms saved per poll at load 9–10).
 * Kept for that: it is what polling clients (the UI, scripts, the OpenAI SDK's waits) pay per request, though no
 * single request is long enough for a person to notice either way.
 */
import type { Job } from '../../common/api-types.js';
import type { ChangeToken, Store } from '../../store/store.js';

/** Views kept at most. Default 256 (a few KB each); past it the oldest is forgotten. */
export const JOB_VIEW_CACHE_SIZE = 256;

interface Entry {
  stamp: ChangeToken;
  baseUrl: string;
  accountId: string;
  view: Job;
}

export interface JobViewCache {
  /**
   * The view of job `id` as `build` would make it now, built only when the database or the base URL changed since
   * it was last built; `build` answers the job's owner with its view, or undefined for no such job (never kept).
   */
  get(id: string, build: () => Promise<{ accountId: string; view: Job } | undefined>): Promise<{ accountId: string; view: Job } | undefined>;
}

function freeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) freeze(inner);
    Object.freeze(value);
  }
  return value;
}

export function createJobViewCache(changes: Store['changes'], baseUrl: () => string, size = JOB_VIEW_CACHE_SIZE): JobViewCache {
  const entries = new Map<string, Entry>();
  return {
    async get(id, build) {
      const base = baseUrl();
      const known = entries.get(id);
      if (known && known.baseUrl === base && (await changes.unchanged(known.stamp))) return known;
      // Taken before the reads: a write between the two makes the stamp older than the view, never newer.
      const stamp = await changes.take();
      const built = await build();
      if (!built) {
        entries.delete(id);
        return undefined;
      }
      const entry: Entry = { stamp, baseUrl: base, accountId: built.accountId, view: freeze(built.view) };
      entries.delete(id);
      if (entries.size >= size) entries.delete(entries.keys().next().value!);
      entries.set(id, entry);
      return entry;
    },
  };
}
