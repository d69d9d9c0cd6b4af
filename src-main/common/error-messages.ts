/**
 * The messages of errors raised in more than one place (beside their codes in common/errors.ts): each is written once,
 * so two parts refusing the same thing say it the same way. A message says what was wrong and how to fix it.
 */

/** A request that arrives while the service closes (internal_error). */
export const SHUTTING_DOWN = 'the service is shutting down';

/** An error nobody expected: the client gets this, the log gets the stack (internal_error). */
export const UNEXPECTED_ERROR = 'the service hit an unexpected error; it is logged';

/** Speech to text without audio (invalid_params). */
export const AUDIO_FILE_NEEDED = 'speech to text needs an audio file';

/** Decoding (audio_decode_failed). */
export const NO_AUDIO_SAMPLES = 'the file contains no audio samples';
export const FFMPEG_MISSING = 'ffmpeg is not installed';
export const EMPTY_AUDIO_FILE = 'the audio file is empty (0 bytes)';
export const UNRECOGNISED_AUDIO = 'the file is not a recognised audio format (wav, mp3, flac, ogg, opus, m4a, webm; install ffmpeg for more)';
export function undecodable(format: string, cause: unknown): string {
  return `the ${format} file could not be decoded: ${(cause as Error).message}`;
}

/** Audio longer than a model takes (audio_too_long). */
export function audioTooLong(seconds: number, max: number): string {
  return `the audio is ${Math.round(seconds)} s long; this model accepts up to ${max} s`;
}

/** A field that must be text (invalid_request). */
export function mustBeString(field: string): string {
  return `${field} must be a string`;
}

/** An export format outside the list. */
export function formatOneOf(formats: readonly string[]): string {
  return `format must be one of ${formats.join(', ')}`;
}

/** A live WebSocket without its model (model_required), with an unknown one (not_found), or one not ready. */
export const MODEL_QUERY_REQUIRED = 'the model query parameter is required';
export function noModel(id: string): string {
  return `no model ${id}`;
}
export function modelUnavailable(id: string, reason: string | null | undefined): string {
  return `model ${id} is unavailable: ${reason ?? 'unknown reason'}`;
}

/** A job id that is not one of this route's (not_found). */
export function noJobOnRoute(id: string): string {
  return `no job ${id} on this route`;
}

/** A job for an account that is not there (unauthorized). */
export function noAccount(id: string): string {
  return `account ${id} does not exist`;
}

/** A WebSocket upgrade to a path no socket serves (not_found). */
export function noWebSocketRoute(path: string): string {
  return `no WebSocket route at ${path}`;
}

/** PocketSphinx's decoder failing (engine_failed), in files and live. */
export const POCKETSPHINX_RELEASED = 'the PocketSphinx decoder was released';
export const POCKETSPHINX_NO_UTTERANCE = 'PocketSphinx could not start an utterance';
export const POCKETSPHINX_NO_PROCESS = 'PocketSphinx could not process the audio';
