/**
 * Limits the service enforces and its clients (the renderer, the CLI) respect before sending, defined once here so
 * a change cannot leave one side behind. Pure constants: the renderer imports this file.
 */

/** Most items (files or texts) in one batch (spec). */
export const MAX_BATCH_ITEMS = 50;
/** Open batches an account may have at a time; another batch POST answers 429 too_many_open_batches (spec). */
export const MAX_OPEN_BATCHES = 2;
/** Hours an uploaded recording may be kept after its job ends (retention settings, whole hours). */
export const RECORDINGS_HOURS_RANGE = { min: 1, max: 8760 } as const;
/** Days a finished job may stay in the history (retention settings, whole days; null there = forever). */
export const JOB_HISTORY_DAYS_RANGE = { min: 1, max: 3650 } as const;
