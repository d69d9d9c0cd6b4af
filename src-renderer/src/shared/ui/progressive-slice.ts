/** Slicing of progressive rendering (see progressive.svelte.ts), kept rune-free so it runs under plain Node. */

/** How far to extend `from` so the slice costs at most `step` units (always at least one row). */
export function nextLimit(from: number, total: number, step: number, weight: (index: number) => number = () => 1): number {
  let cost = 0;
  let end = from;
  while (end < total) {
    cost += Math.max(1, weight(end));
    if (cost > step && end > from) break;
    end++;
  }
  return end;
}
