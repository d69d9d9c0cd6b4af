/**
 * Whether this node can reach its database now, for `/v1/health` and a worker's health port: one small read, given
 * a short time. A load balancer takes an API node whose database is gone out of rotation (503) instead of sending
 * it requests that would all fail; on the embedded SQLite file the answer is always yes without asking.
 */
import type { Store } from '../../store/store.js';

/** How long the read may take before the database counts as unreachable. */
export const DATABASE_CHECK_MS = 2000;

export async function databaseReachable(store: Store, timeoutMs = DATABASE_CHECK_MS): Promise<{ ok: true } | { ok: false; reason: string }> {
  if (store.dialect === 'sqlite') return { ok: true };
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([store.repos.jobs.anyQueued(), late]);
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}
