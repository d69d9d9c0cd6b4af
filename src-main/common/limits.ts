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

/** Longest text one transcript segment may be given by an edit (PATCH …/transcript), in characters. */
export const MAX_SEGMENT_TEXT_CHARS = 10_000;
/** Longest speaker name, in characters (after trimming); a name is at least one character. */
export const MAX_SPEAKER_NAME_CHARS = 200;
/** Most speakers a diarization may be asked for (`num_speakers`, `min_speakers`, `max_speakers`: 1 to this). */
export const MAX_DIARIZATION_SPEAKERS = 20;
/**
 * Bounds of an account's speaker library (docs/speakers.md). Every diarized job is handed the account's profiles
 * (each a stored centre and its "not" voices), so these bound that work: at most 200 × (1 + 10) embeddings of
 * 192–512 numbers, about 1–11 MB of JSON, for a library at its largest.
 */
export const MAX_SPEAKER_PROFILES = 200;
/** Most voice samples a profile keeps (its oldest are dropped); its centre is their mean. */
export const MAX_SPEAKER_PROFILE_SAMPLES = 20;
/** Most "not" voices a profile keeps (its oldest are dropped). */
export const MAX_SPEAKER_NOT_SAMPLES = 10;
/** Most segment changes, speaker names or merges one transcript edit may carry. */
export const MAX_TRANSCRIPT_CHANGES = 10_000;
/** Longest search query (`q` of GET /v1/search), in characters, and the most words (terms and phrase words) it may hold. */
export const MAX_SEARCH_QUERY_CHARS = 1_000;
export const MAX_SEARCH_TERMS = 32;
/** Search results per page: 20 when no limit is given, at most 100. */
export const DEFAULT_SEARCH_LIMIT = 20;
export const MAX_SEARCH_LIMIT = 100;
/** Subtitle exports: `max_chars_per_line` (default 42) and `max_lines` (default 2) accept these ranges. */
export const SUBTITLE_LINE_CHARS_RANGE = { min: 10, max: 200 } as const;
export const SUBTITLE_LINES_RANGE = { min: 1, max: 5 } as const;

/** Watch folders one service keeps (PUT /v1/settings/watch-folders). */
export const MAX_WATCH_FOLDERS = 20;
