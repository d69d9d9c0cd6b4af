/**
 * Bearer-key authentication and the Origin policy for /v1. Every route needs a key unless it declares otherwise in
 * its own file (http/route-access.ts): public (the catalogue GETs, artifact download links, the UI session bootstrap,
 * which has its own loopback, Origin and one-time-token checks), key-optional (health, which shows more to a key: a
 * key sent is checked like anywhere else, a wrong one is 401, and the route sees its owner) or key-or-query (the
 * recording a browser's `<audio>` loads). A browser Origin that is neither the service's own nor configured gets 403
 * forbidden_origin on keyed routes.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { gate } from '../http/route-gates.js';
import { getConnInfo } from '@hono/node-server/conninfo';
import { ApiError } from '../../common/errors.js';
import type { ApiKeys, KeyOwner } from './api-keys.js';
import { authenticate, type Authentication, type Credentials } from './authenticate.js';
import type { FailedAuthLimiter } from './failed-auth-limiter.js';
import { requestHeader } from '../http/node-request.js';
import { routeAccess, type RouteAccess } from '../http/route-access.js';
import type { Origins } from './origins.js';

export type AuthVariables = { owner: KeyOwner };

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

/** The request's key: the Bearer header, or `?api_key=` where the route takes one; ApiError unauthorized if none. */
function requestKey(c: Context, access: RouteAccess): string {
  const header = requestHeader(c, 'authorization');
  if (!header) {
    if (access === 'key-or-query') {
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

/** What an HTTP request shows the key check; read when the check asks (a request refused for its Origin is not read further). */
class HttpCredentials implements Credentials {
  readonly origin: string | undefined;

  constructor(
    private readonly c: Context,
    private readonly access: RouteAccess,
  ) {
    this.origin = requestHeader(c, 'origin');
  }

  address(): string {
    return clientAddress(this.c);
  }

  key(): string {
    return requestKey(this.c, this.access);
  }
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
    if (c.req.method === 'OPTIONS') return undefined;
    const access = routeAccess(c);
    if (access === 'public' || (access === 'key-optional' && requestHeader(c, 'authorization') === undefined)) return undefined;
    const owner = authenticate(auth, new HttpCredentials(c, access));
    if (owner instanceof Promise) return owner.then((found) => void c.set('owner', found));
    c.set('owner', owner);
    return undefined;
  });
}
