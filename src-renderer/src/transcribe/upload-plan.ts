/**
 * How dropped files are sent: one file → the single-item route (answered at once with its queued job, `wait=false`);
 * several → batches of up to 50 (one request each, answered at once): a browser keeps at most ~6 connections per
 * origin, and fifty uploads at a time would starve the polling that shows progress.
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
