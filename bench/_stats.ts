/** Percentiles for the benchmarks (files starting with _ are not run by run-all). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}
export const round3 = (v: number): number => Math.round(v * 1000) / 1000;
