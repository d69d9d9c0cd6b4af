/**
 * Structural sharing for polled lists: a fresh server answer is merged into the previous one so every unchanged
 * object keeps its identity. Svelte's keyed `{#each}` and `$derived` skip work for identical values, so a poll that
 * changes one job's progress redraws one row instead of every row of every tab.
 */

/** `next`, but with every part that deep-equals the matching part of `prev` replaced by the `prev` object. */
export function share<T>(prev: unknown, next: T): T {
  if (Object.is(prev, next)) return prev as T;
  if (typeof prev !== 'object' || typeof next !== 'object' || prev === null || next === null) return next;
  if (Array.isArray(next)) {
    if (!Array.isArray(prev)) return next;
    let same = prev.length === next.length;
    const out = next.map((value: unknown, i) => {
      const shared = share(prev[i], value);
      if (shared !== prev[i]) same = false;
      return shared;
    });
    return (same ? prev : out) as T;
  }
  if (Array.isArray(prev)) return next;
  const before = prev as Record<string, unknown>;
  const after = next as Record<string, unknown>;
  const keys = Object.keys(after);
  let same = keys.length === Object.keys(before).length;
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const shared = share(before[key], after[key]);
    if (!(key in before) || shared !== before[key]) same = false;
    out[key] = shared;
  }
  return (same ? prev : out) as T;
}

/**
 * Merge a fresh list of records with ids into the previous one: items are matched by id (new jobs shift the
 * positions of old ones), unchanged items keep their identity, and the previous array itself comes back when
 * nothing changed at all.
 */
export function shareById<T extends { id: string }>(prev: readonly T[], next: readonly T[]): T[] {
  const byId = new Map(prev.map((item) => [item.id, item]));
  let same = prev.length === next.length;
  const out = next.map((item, i) => {
    const shared = share(byId.get(item.id), item);
    if (shared !== prev[i]) same = false;
    return shared;
  });
  return same ? (prev as T[]) : out;
}
