/**
 * How an audio length is shown and billed, in one place: a job's `duration_seconds` is a decimal string with 3
 * decimals ("3.308"), and the ledger charges exactly that value (3.308 s, not the 3.30816… s measured), so a client
 * can recompute its bill from the job it reads: usage = per_minute_usd × Number(duration_seconds) / 60.
 */

/** Decimals of `duration_seconds` (milliseconds). */
export const DURATION_DECIMALS = 3;

/** The job's `duration_seconds` for a measured length (negative or non-finite lengths count as 0). */
export function durationString(seconds: number): string {
  return (Number.isFinite(seconds) && seconds > 0 ? seconds : 0).toFixed(DURATION_DECIMALS);
}
