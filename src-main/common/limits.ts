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
/**
 * Uploaded files must be "under 500 MB" (spec), in decimal megabytes: a file of 500,000,000 bytes or more is
 * refused (413 file_too_large). This is the exclusive bound.
 */
export const UPLOAD_BYTES_EXCLUSIVE = 500_000_000;
/**
 * The largest file accepted, in bytes (inclusive): 499,999,999. The catalogue's `limits.max_file_bytes` is always
 * such an inclusive maximum ("a file of at most this many bytes"), here and for models with a smaller limit of their own.
 */
export const MAX_FILE_BYTES = UPLOAD_BYTES_EXCLUSIVE - 1;
/** Watch folders one service keeps (PUT /v1/settings/watch-folders). */
export const MAX_WATCH_FOLDERS = 20;
