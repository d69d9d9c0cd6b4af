/**
 * The one way to fail (docs/design.md, house rules): throw a domain error with a code where the fault is found, and
 * let the edges translate codes, never classes. Three errors, one per list of codes:
 * - `ApiError` — a request's fault (REQUEST_ERRORS): the central HTTP handler (service/http/error-handler.ts) maps its
 *   code to the status (service/http/http-status.ts, the only code → status map) and to `{"error": {"code", "message"}}`;
 *   a live socket sends its code and message as an `error` message and stays open.
 * - `JobError` — a job's failure (JOB_ERROR_CODES): the job engine stores its code and message on the job row.
 * - `PackageError` — a model package's download, install or import (PACKAGE_ERROR_CODES), recorded on the package.
 * They stay three rather than one VoxdeskError because each is caught by a different edge for a different contract
 * (a status on the wire, a job row, a package row), and ApiError's codes are checked against the status table by the
 * compiler; one class would move that check to run time at each edge. A start-up option that is wrong is a plain Error (the command prints it and exits). Messages used
 * in more than one place are in common/error-messages.ts. Any other error class must be caught by type for a
 * behaviour other than becoming a code; eslint.config.js lists them, each with its reason.
 */

export const REQUEST_ERRORS = {
  unauthorized: 401,
  forbidden_origin: 403,
  not_found: 404,
  artifact_expired: 410,
  recording_deleted: 410,
  method_not_allowed: 405,
  request_timeout: 408,
  model_required: 400,
  invalid_params: 400,
  unsupported_param: 400,
  file_required: 400,
  text_required: 400,
  text_too_long: 400,
  too_many_items: 400,
  /** A watch folder added in PUT /v1/settings/watch-folders that does not exist, or is a file. */
  folder_missing: 400,
  folder_not_directory: 400,
  invalid_request: 400,
  invalid_json: 400,
  idempotency_key_reused: 409,
  conflict: 409,
  file_too_large: 413,
  /** Hosted work that cannot wait (a live dictation) and the monthly cap for hosted work leaves too little. */
  budget_exceeded: 402,
  unsupported_media_type: 415,
  unsupported_audio: 422,
  model_unavailable: 422,
  audio_too_long: 422,
  too_many_open_batches: 429,
  rate_limited: 429,
  too_many_uploads: 429,
  /** More live sessions (dictation, or a meeting capture's two sides) than the caps allow. */
  too_many_sessions: 429,
  /** A meeting capture cannot record on this machine (no sound server, a device that does not exist). */
  capture_unavailable: 422,
  /** An AI action (or its settings' test) without a language model configured: PUT /v1/settings/language-model first. */
  language_model_not_configured: 409,
  /** The language model endpoint did not answer (its settings' "Test connection"). */
  language_model_unreachable: 502,
  /** The language model endpoint answered with an error (a wrong key or URL, an unknown model). */
  language_model_refused: 502,
  /** Live sockets' own: a message of a type the socket does not know, and a speak past the queue of waiting ones. */
  unknown_message_type: 400,
  queue_full: 429,
  internal_error: 500,
  upstream_unavailable: 502,
  upload_quota_exceeded: 507,
} as const;
export type RequestErrorCode = keyof typeof REQUEST_ERRORS;

/** Codes carried by jobs (`error_code`): failures, and the reasons a queued job is waiting. */
export const JOB_ERROR_CODES = [
  'audio_decode_failed',
  'engine_failed',
  'engine_crashed',
  'engine_timeout',
  'model_unavailable',
  'audio_too_long',
  'invalid_params',
  'cancelled',
  'expired',
  'interrupted', // only in jobs written by earlier builds: a service restart no longer fails a job
  'remote_failed',
  'remote_rejected',
  /** Language-model actions (docs/ai-actions.md): the endpoint did not answer, refused, or none is configured. */
  'language_model_unreachable',
  'language_model_refused',
  'language_model_not_configured',
  /** A clean-up whose transcript was edited while it ran. */
  'conflict',
  /** A watched file that became a link leading out of its folder, or vanished, before its job ran. */
  'symlink_refused',
  /** Text to speak that is empty, has no words, or is past the model's limit when the job runs. */
  'text_required',
  'text_too_long',
  /** An AI action whose next request would pass the monthly spending cap (docs/ai-actions.md). */
  'budget_exceeded',
] as const;
export type JobFailureCode = (typeof JOB_ERROR_CODES)[number];

declare const hostedBrand: unique symbol;
/**
 * A code the hosted service gave for its job or its refusal (remote/), passed on as it came so a client here branches
 * on the code a client of the hosted service would. Made only by `hostedCode`, so every code written here is checked.
 */
export type HostedErrorCode = string & { readonly [hostedBrand]: true };
export function hostedCode(code: string): HostedErrorCode {
  return code as HostedErrorCode;
}

/** What a `JobError` carries: a failure, why a queued job waits, or a hosted job's own code. */
export type JobErrorCode = JobFailureCode | WaitingCode | HostedErrorCode;

/** Whether `code` is one this service's jobs are written with (not a hosted one). */
export function isJobFailureCode(code: unknown): code is JobFailureCode {
  return (JOB_ERROR_CODES as readonly unknown[]).includes(code);
}

/**
 * Why a queued job (or a pending batch item) waits. `waiting_for_budget`: hosted work whose quote would pass the
 * monthly spending cap (GET/PUT /v1/settings/budget); it keeps its place and never expires while it waits.
 */
export const WAITING_CODES = ['waiting_for_capacity', 'waiting_for_network', 'waiting_for_model', 'waiting_for_budget'] as const;
export type WaitingCode = (typeof WAITING_CODES)[number];

/**
 * The `error_code` of a queued job the user paused (POST /v1/speech-to-text/{id}/pause): it keeps its place and its
 * committed segments, is not started, and does not expire, until resumed.
 */
export const PAUSED = 'paused';

export interface ErrorBody {
  error: { code: string; message: string };
}

export class ApiError extends Error {
  readonly code: RequestErrorCode;
  /** Sent as Retry-After (429, 503): when asking again can succeed. */
  readonly retryAfterSeconds: number | null;
  /** The request field at fault, where one is (OpenAI-compatible routes report it as `error.param`). */
  readonly param: string | null;
  constructor(code: RequestErrorCode, message: string, options?: { cause?: unknown; retryAfterSeconds?: number; param?: string }) {
    super(message, options);
    this.name = 'ApiError';
    this.code = code;
    this.retryAfterSeconds = options?.retryAfterSeconds ?? null;
    this.param = options?.param ?? null;
  }
  toBody(): ErrorBody {
    return { error: { code: this.code, message: this.message } };
  }
}

/** The message every cancelled job carries, whichever part noticed the cancel. */
export const CANCELLED_MESSAGE = 'The job was cancelled.';

/** An error an engine raises for a job: becomes the job's error_code / error_message. */
export class JobError extends Error {
  readonly code: JobErrorCode;
  constructor(code: JobErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'JobError';
    this.code = code;
  }
}

/**
 * Codes of a model package whose download, install or import failed (its status in GET /v1/local/models, and the
 * `failed` event of the model manager): never an HTTP status — a package fails in the background, after the request.
 */
export const PACKAGE_ERROR_CODES = ['download_failed', 'checksum_mismatch', 'cancelled', 'unsafe_archive', 'install_failed', 'import_failed'] as const;
export type PackageErrorCode = (typeof PACKAGE_ERROR_CODES)[number];

/** What went wrong with a download's network, for the hints a caller adds: the path, TLS trust, the proxy, the server. */
export type NetworkProblem = 'unreachable' | 'tls' | 'proxy_auth' | 'http' | 'other';

/**
 * Why a folder is not a model of a family: `not_a_folder`, `family_mismatch` (the family given does not fit) or
 * `unknown_family` (no layout fits); `found` summarises the folder's files for callers that may show them.
 */
export interface LayoutRefusal {
  kind: 'not_a_folder' | 'family_mismatch' | 'unknown_family';
  family: string | null;
  found: string | null;
}

/**
 * The models floor's one error (downloads, archives, layouts, CA files, imports): a package code, a message that says
 * what was wrong, and what a caller decides on — whether another attempt may succeed (`retryable`), the host and the
 * network problem (for the hint), the layout refusal (an import answers it as its request's fault).
 */
export class PackageError extends Error {
  readonly code: PackageErrorCode;
  /** Worth another attempt (connection dropped, server down, 5xx) rather than final (404, checksum). */
  readonly retryable: boolean;
  /** The host that failed (of the URL being fetched), when the failure is about one. */
  readonly host: string | null;
  readonly problem: NetworkProblem;
  /** Set when the files are not a model of the family: the folder was read, its contents refused. */
  readonly layout: LayoutRefusal | null;
  constructor(
    code: PackageErrorCode,
    message: string,
    options?: { cause?: unknown; retryable?: boolean; host?: string | null; problem?: NetworkProblem; layout?: LayoutRefusal },
  ) {
    super(message, options);
    this.name = 'PackageError';
    this.code = code;
    this.retryable = options?.retryable ?? false;
    this.host = options?.host ?? null;
    this.problem = options?.problem ?? 'other';
    this.layout = options?.layout ?? null;
  }
}

/**
 * The code and message a child process or thread sends for what its engine threw: a JobError's own code, anything
 * else `engine_failed` (an unexpected exception is the engine's fault, and its stack goes to the log, not the job).
 */
export function jobFailureOf(error: unknown): { code: JobErrorCode; message: string } {
  return { code: error instanceof JobError ? error.code : 'engine_failed', message: error instanceof Error ? error.message : String(error) };
}

/** What an engine throws when it sees its job's signal aborted. */
export function jobCancelled(): JobError {
  return new JobError('cancelled', CANCELLED_MESSAGE);
}
