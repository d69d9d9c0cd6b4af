/**
 * Gates: the checks every /v1 request passes before its route (CORS, the key, idle bodies, local-account-only), run
 * as one synchronous step in front of the route instead of as a chain of Hono middleware.
 *
 * Why: Hono runs a route with middleware through `compose`, an async function per handler, then an async wrapper,
 * and the Node adapter awaits the promise it gets and watches the connection's close for it. A route alone is called
 * directly, and when it answers at once the adapter writes the answer at once. A poll of a job went through five
 * handlers: the promises and the close listener were a fifth of what the service added over a bare `node:http`
 * answer (bench/api-overhead.ts). A gate never runs code after the route, so a run of gates followed by the route is
 * the same as the route with the gates' checks at its start; the app's router (remembered-routes.ts) hands Hono that
 * one handler (`fuseGates`).
 *
 * Same behaviour as middleware: a gate that throws reaches the central error handler (the answer is built on the same
 * context, so headers a gate set are on it); a gate may answer early (the CORS preflight); the route's own
 * parameters are the ones `c.req.param()` reads. A chain with any handler that is not a gate (but the last) is left
 * to Hono as it is.
 */
import type { Context, MiddlewareHandler, Next } from 'hono';
import type { Result } from 'hono/router';
import type { RouterRoute } from 'hono/types';

/**
 * A check before the route: throws (an ApiError), answers early with a Response, or returns undefined to go on. A
 * check that must ask the store (an API key not remembered, auth/api-keys.ts) answers a promise of the same; the
 * gates after it and the route then run once it settles. Synchronous answers keep the request synchronous.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Hono's own handler types take any Env
export type Gate = (c: Context<any>) => Response | undefined | Promise<Response | undefined>;

const GATE = Symbol('voxdesk.gate');

type Tagged = MiddlewareHandler & { [GATE]?: Gate };

/**
 * A gate as Hono middleware (for `app.use`). Where it is not fused (a chain with other middleware), it behaves as
 * the middleware `(c, next) => gate(c) ?? next()`.
 */
export function gate(check: Gate): MiddlewareHandler {
  const middleware: Tagged = (c, next) => {
    const early = check(c);
    if (early instanceof Promise) return early.then((answer): Promise<Response | void> | Response => answer ?? next());
    return early ? Promise.resolve(early) : next();
  };
  middleware[GATE] = check;
  return middleware;
}

/** The check inside a handler made by `gate`, or undefined for any other handler. */
export function gateOf(handler: unknown): Gate | undefined {
  return typeof handler === 'function' ? (handler as Tagged)[GATE] : undefined;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Hono's router entries hold handlers of any Env
type AnyHandler = (c: Context<any>, next: Next) => unknown;
/** What Hono's router holds for each registered handler: the handler and the route it was registered with. */
export type HonoEntry = [AnyHandler, RouterRoute];

/** Runs a fused request's synchronous part (its gates and the route up to its first await); see `fuseGates`. */
export type RequestScope = <T>(run: () => T) => T;

const unscoped: RequestScope = (run) => run();

/**
 * On a fused route (`c.req.matchedRoutes` then lists only the route): the gate handlers folded into it, so that
 * what a gate declares about the route (http/route-access.ts) is still found among what the request matched.
 */
export const FOLDED_GATES = Symbol('voxdesk.foldedGates');

/** One matched route's handlers: the gates folded into it (if any), then its own. */
export function routeHandlers(route: RouterRoute): unknown[] {
  return [...((route as { [FOLDED_GATES]?: unknown[] })[FOLDED_GATES] ?? []), route.handler];
}

/**
 * One router answer with its leading gates folded into the route: [gate…, route] becomes [route with the gates'
 * checks first]. Answers of other shapes (no gate, a plain middleware among them, only gates) come back unchanged.
 * Only answers without a parameter stash (TrieRouter's) are folded. `scope` wraps the gates and the route's
 * synchronous part: the app shares one read of other connections' commits per request there
 * (store/others-commits.ts), which the key check and the job view cache both need.
 */
export function fuseGates(result: Result<HonoEntry>, scope: RequestScope = unscoped): Result<HonoEntry> {
  if (result.length !== 1) return result;
  const entries = result[0];
  if (entries.length < 2) return result;
  const gates: Gate[] = [];
  for (let i = 0; i < entries.length - 1; i++) {
    const check = gateOf(entries[i]![0][0]);
    if (!check) return result;
    gates.push(check);
  }
  const [[route, matched], params] = entries[entries.length - 1]!;
  const routerRoute = Object.assign({ ...matched }, { [FOLDED_GATES]: entries.slice(0, -1).map((entry) => entry[0][0]) });
  if (gateOf(route)) return result;
  const run = (c: Parameters<AnyHandler>[0], next: Next, from = 0): unknown => {
    for (let i = from; i < gates.length; i++) {
      const early = gates[i]!(c);
      if (early instanceof Promise) return early.then((answer) => answer ?? run(c, next, i + 1));
      if (early) return early;
    }
    return route(c, next);
  };
  const fused: AnyHandler = (c, next) => {
    const answer = scope(() => run(c, next));
    return answer instanceof Promise ? answer.then((value: unknown) => settle(c, value)) : settle(c, answer);
  };
  return [[[[fused, routerRoute], params]]];
}

/**
 * The route's answer as compose would leave it: when a gate wrote headers onto `c.res` first (CORS without a Node
 * response, i.e. `app.request` in tests), assigning the answer to `c.res` merges them in, as Hono does for
 * middleware. Over node:http nothing was written there and the answer goes out as it is.
 */
function settle(c: Context, answer: unknown): unknown {
  if (answer instanceof Response && !c.finalized) {
    c.res = answer;
    return c.res;
  }
  return answer;
}
