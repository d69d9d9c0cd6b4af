/**
 * How dropped files are sent: one file → the single-item route (its held POST answers with the finished job);
 * several → batches of up to 50 (one request each, answered at once), because a browser keeps at most ~6
 * connections per origin and held single POSTs would starve the polling that shows progress.
 */
import { MAX_BATCH_ITEMS } from '$common/limits.js';

export type UploadPlan<T> = { kind: 'single'; items: [T] } | { kind: 'batch'; items: T[] };

export function planUploads<T>(items: readonly T[], maxBatch = MAX_BATCH_ITEMS): UploadPlan<T>[] {
  if (items.length === 0) return [];
  if (items.length === 1) return [{ kind: 'single', items: [items[0]!] }];
  const plans: UploadPlan<T>[] = [];
  for (let i = 0; i < items.length; i += maxBatch) {
    const chunk = items.slice(i, i + maxBatch);
    plans.push(chunk.length === 1 ? { kind: 'single', items: [chunk[0]!] } : { kind: 'batch', items: chunk });
  }
  return plans;
}

/** Find the job a held single POST created, before the POST answers: same name, created after we sent it. */
export function matchJob<J extends { id: string; name: string | null; created_at: string }>(
  jobs: readonly J[],
  name: string,
  sentAtMs: number,
  /** Jobs already given to other rows. Default none. */
  claimed: ReadonlySet<string> = new Set(),
): J | undefined {
  // 5 s of slack for clock differences between page and service (same machine, but rounding and skew).
  const since = sentAtMs - 5000;
  const candidates = jobs.filter((j) => j.name === name && !claimed.has(j.id) && Date.parse(j.created_at) >= since);
  return candidates.sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at))[0];
}
