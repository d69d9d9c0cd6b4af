/**
 * The one key check of the service, for an HTTP route and a WebSocket upgrade alike: a browser's Origin must be the
 * service's own or configured (403 forbidden_origin), a key must be given (how is the transport's: a Bearer header,
 * or `api_key` where a route allows it — `key()` throws that transport's 401 when there is none), every failed check
 * counts towards its client address's limit (429 rate_limited), and an unknown or revoked key is 401 unauthorized.
 * Answers the key's owner, at once when the key was matched a moment ago (api-keys.ts), else as a promise.
 */
import { ApiError } from '../../common/errors.js';
import type { KeyOwner } from './api-keys.js';
import type { FailedAuthLimiter } from './failed-auth-limiter.js';

export interface Authentication {
  /** The owner of a key (session keys included), or undefined for an unknown or revoked one. */
  findOwner(key: string): KeyOwner | undefined | Promise<KeyOwner | undefined>;
  limiter: FailedAuthLimiter;
  /** Whether a browser origin may call (clients that send no Origin always may). */
  isOriginAllowed(origin: string): boolean;
}

export interface Credentials {
  /** The Origin header, if any. */
  origin: string | undefined;
  /** The client's address, for the failed-check limit. */
  address(): string;
  /** The key the request carries; throws ApiError unauthorized, worded for the transport, when it carries none. */
  key(): string;
}

export function authenticate(auth: Authentication, credentials: Credentials): KeyOwner | Promise<KeyOwner> {
  const { origin } = credentials;
  if (origin !== undefined && !auth.isOriginAllowed(origin)) {
    throw new ApiError('forbidden_origin', `origin ${origin} is not allowed; add it to allowedOrigins`);
  }
  const key = credentials.key();
  const owner = auth.findOwner(key);
  return owner instanceof Promise ? owner.then((found) => admit(auth, credentials, key, found)) : admit(auth, credentials, key, owner);
}

/** The stable id a key is remembered by in the limiter (session keys have no row). */
function limiterKeyId(owner: KeyOwner, key: string): string {
  return owner.keyId ?? `session:${key}`;
}

/** The limiter's verdict as an error to throw, or null when the check may go on (also the UI session bootstrap's). */
export function rateLimited(limiter: FailedAuthLimiter, address: string, keyId: string | null): ApiError | null {
  const verdict = limiter.check(address, keyId);
  if (verdict.allowed) return null;
  return new ApiError('rate_limited', `too many failed key checks from ${address}; try again in ${verdict.retryAfterSeconds} s`, {
    retryAfterSeconds: verdict.retryAfterSeconds,
  });
}

function admit(auth: Authentication, credentials: Credentials, key: string, owner: KeyOwner | undefined): KeyOwner {
  const limited = rateLimited(auth.limiter, credentials.address(), owner ? limiterKeyId(owner, key) : null);
  if (limited) throw limited;
  if (!owner) throw new ApiError('unauthorized', 'invalid or revoked API key');
  return owner;
}
