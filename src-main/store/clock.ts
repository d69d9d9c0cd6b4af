/** Injectable time source (tests move time forward to expire jobs and artifacts). */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

/** ISO 8601 UTC with milliseconds, the format of every timestamp in the store. */
export function isoAt(clock: Clock, offsetMs = 0): string {
  return new Date(clock().getTime() + offsetMs).toISOString();
}
