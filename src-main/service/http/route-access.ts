/**
 * What a /v1 route needs of its caller, declared where the route is written instead of in a list of paths beside the
 * key check. A route that says nothing needs a key (`Authorization: Bearer`): the safe default, so a route added
 * later is keyed unless its author decides otherwise in its own file. The others, each a marker put before the
 * route's handler as Hono middleware is (`app.get('/v1/models', publicRoute, (c) => …)`):
 * - `publicRoute`: no key (the catalogue, artifact links, the UI session's bootstrap, which checks its caller itself);
 * - `keyOptionalRoute`: no key needed, but a key sent is checked like anywhere else and the route sees its owner
 *   (`GET /v1/health` shows more to the administering key);
 * - `keyOrQueryRoute`: a key, which may also come as `?api_key=` — only for what a browser's `<audio src>` loads,
 *   since a key in a URL can end up where URLs go.
 *
 * The key check (auth/auth-middleware.ts) runs before the route and finds the marker among the handlers Hono matched
 * for this request (`c.req.matchedRoutes`), whatever the path: no regular expression has to follow a route's path.
 * A marker is a gate that does nothing, so the route still runs as one fused handler (route-gates.ts).
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { RouterRoute } from 'hono/types';
import { gate, routeHandlers } from './route-gates.js';

export type RouteAccess = 'key' | 'public' | 'key-optional' | 'key-or-query';

const ACCESS = Symbol('voxdesk.routeAccess');

type Marked = MiddlewareHandler & { [ACCESS]?: RouteAccess };

function marker(access: Exclude<RouteAccess, 'key'>): MiddlewareHandler {
  const handler: Marked = gate(() => undefined);
  handler[ACCESS] = access;
  return handler;
}

export const publicRoute = marker('public');
export const keyOptionalRoute = marker('key-optional');
export const keyOrQueryRoute = marker('key-or-query');

/** What each matched route declared (null: nothing), found once per route: its handlers do not change. */
const declared = new WeakMap<object, RouteAccess | null>();

function declaredBy(route: RouterRoute): RouteAccess | null {
  let access = declared.get(route);
  if (access === undefined) {
    access = routeHandlers(route).map((handler) => (handler as Marked)[ACCESS]).find((a) => a !== undefined) ?? null;
    declared.set(route, access);
  }
  return access;
}

/** What the route this request matched declared; 'key' when it declared nothing or no route matched. */
export function routeAccess(c: Context): RouteAccess {
  for (const route of c.req.matchedRoutes) {
    const access = declaredBy(route);
    if (access) return access;
  }
  return 'key';
}
