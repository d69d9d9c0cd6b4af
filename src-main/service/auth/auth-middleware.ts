/**
 * Bearer-key authentication and the Origin policy for /v1. Public (no key): the catalogue GETs, artifact download
 * links, health and the UI session bootstrap (which has its own loopback, Origin and one-time-token checks). A browser
 * Origin that is neither the service's own nor configured gets 403 forbidden_origin on keyed routes. Health is public
 * but shows more to a key: when a request to it carries an Authorization header, the key is checked like anywhere else
 * (a wrong key is 401) and the route sees its owner.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { gate } from '../http/route-gates.js';
import { getConnInfo } from '@hono/node-server/conninfo';
import { ApiError } from '../../common/errors.js';
import type { ApiKeys, KeyOwner } from './api-keys.js';
import { authenticate, type Authentication } from './authenticate.js';
import type { FailedAuthLimiter } from './failed-auth-limiter.js';
import { requestHeader } from '../http/node-request.js';
import type { Origins } from './origins.js';

export type AuthVariables = { owner: KeyOwner };

const PUBLIC_GET = [/^\/v1\/models(\/[^/]+(\/quote)?)?\/?$/, /^\/v1\/artifacts\/[^/]+\/[^/]+$/, /^\/v1\/health\/?$/, /^\/v1\/session\/bootstrap$/];
const BOOTSTRAP = '/v1/session/bootstrap';

/**
 * Keyed GETs a browser's media element loads (`<audio src>` cannot send headers): the key may come as `?api_key=`
 * instead, as on the live WebSockets. Only here: a key in a URL can end up where URLs go, so no other route takes it.
 */
const QUERY_KEY_GET = [/^\/v1\/speech-to-text\/[^/]+\/audio$/];

/** Public routes that answer more when a valid key is sent (GET /v1/health adds the queue counts). */
const KEY_OPTIONAL_GET = [/^\/v1\/health\/?$/];

function keyOptional(method: string, path: string): boolean {
  return (method === 'GET' || method === 'HEAD') && KEY_OPTIONAL_GET.some((re) => re.test(path));
}

export function isPublic(method: string, path: string): boolean {
  if (method === 'POST' && path === BOOTSTRAP) return true;
  return (method === 'GET' || method === 'HEAD') && PUBLIC_GET.some((re) => re.test(path));
}

export interface AuthDeps {
  keys: ApiKeys;
  origins: Origins;
  /** Keys that live only for this process (the browser UI session), mapped to their owner. */
  sessionKeys: Map<string, KeyOwner>;
  /** Failed key checks per client address (429 rate_limited past the limit). */
  limiter: FailedAuthLimiter;
}

/** The TCP peer's address ('unknown' when there is no socket, as in app.request tests). */
export function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The request's key: the Bearer header, or `?api_key=` on the QUERY_KEY_GET routes; ApiError unauthorized if none. */
function requestKey(c: Context): string {
  const header = requestHeader(c, 'authorization');
  if (!header) {
    const method = c.req.method;
    if ((method === 'GET' || method === 'HEAD') && QUERY_KEY_GET.some((re) => re.test(c.req.path))) {
      const keys = new URL(c.req.url).searchParams.getAll('api_key');
      if (keys.length > 1) throw new ApiError('invalid_request', 'api_key is given more than once');
      if (keys[0]) return keys[0];
      throw new ApiError('unauthorized', 'missing API key: send Authorization: Bearer <API key>, or api_key=<API key> in the query');
    }
    throw new ApiError('unauthorized', 'missing Authorization: Bearer <API key> header');
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new ApiError('unauthorized', 'the Authorization header must be "Bearer <API key>"');
  return match[1]!;
}

/** The service's one key check (authenticate.ts) for the keys these deps know. */
export function authenticationOf(deps: AuthDeps): Authentication {
  return {
    findOwner: (key) => deps.sessionKeys.get(key) ?? deps.keys.find(key),
    limiter: deps.limiter,
    isOriginAllowed: (origin) => deps.origins.isAllowed(origin),
  };
}

/** A gate (http/route-gates.ts): it throws or lets the request go on, with the key's owner set on the context. */
export function authMiddleware(deps: AuthDeps): MiddlewareHandler<{ Variables: AuthVariables }> {
  const auth = authenticationOf(deps);
  return gate((c: Context<{ Variables: AuthVariables }>) => {
    const path = c.req.path;
    const optional = keyOptional(c.req.method, path) && requestHeader(c, 'authorization') !== undefined;
    if (c.req.method === 'OPTIONS' || (isPublic(c.req.method, path) && !optional)) return undefined;
    const owner = authenticate(auth, { origin: requestHeader(c, 'origin'), address: () => clientAddress(c), key: () => requestKey(c) });
    if (owner instanceof Promise) return owner.then((found) => void c.set('owner', found));
    c.set('owner', owner);
    return undefined;
  });
}
