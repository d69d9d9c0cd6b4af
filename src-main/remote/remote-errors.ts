/**
 * What went wrong talking to the hosted service, sorted by what the caller should do about it:
 * `network` — the service could not be reached (refused, reset, timed out, 502/503/504): wait and try again;
 * `server` — it answered 500: retry a few times, then fail; `rejected` — it refused the request (4xx) or the job:
 * fail with the hosted `error.code`, which passes through unchanged.
 */
export type RemoteErrorKind = 'network' | 'server' | 'rejected';

export class RemoteError extends Error {
  readonly kind: RemoteErrorKind;
  /** The hosted `error.code` (`network_error` when nothing answered). */
  readonly code: string;
  /** HTTP status, 0 when no response arrived. */
  readonly status: number;
  constructor(kind: RemoteErrorKind, code: string, message: string, status: number, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RemoteError';
    this.kind = kind;
    this.code = code;
    this.status = status;
  }
}

/** Statuses a proxy or a restarting service answers while the real service is away. */
const UNREACHABLE_STATUSES = new Set([502, 503, 504]);

export function kindOfStatus(status: number): RemoteErrorKind {
  if (status === 0 || UNREACHABLE_STATUSES.has(status)) return 'network';
  if (status >= 500) return 'server';
  return 'rejected';
}

export function isNetworkError(error: unknown): boolean {
  return error instanceof RemoteError && error.kind === 'network';
}
