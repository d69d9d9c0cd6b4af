/**
 * CORS for /v1, answering like `hono/cors` (same headers, same 204 preflight) but without its cost on every request.
 *
 * Why not `hono/cors`: it writes its headers into `c.res` *before* the route runs, so the route's response is then
 * merged into that placeholder, and once more for `Vary` afterwards. With the Node adapter each merge turns the
 * adapter's lightweight string response into a full fetch Response with a body stream, and the JSON of a job poll was
 * written through a stream reader instead of one `end(body)`: about half of what a GET of a job cost the service
 * (bench/api-overhead.ts). Here the headers go once onto Node's response before the route runs (Node merges them with
 * the route's own when it writes the head), or, without node:http (app.request), onto the response the route returned.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { nodeResponse, requestHeader } from './node-request.js';

export interface CorsOptions {
  /** The origin to echo back in Access-Control-Allow-Origin, or null for none (the browser then refuses). */
  allowOrigin(origin: string): string | null;
  allowMethods: readonly string[];
  allowHeaders: readonly string[];
  exposeHeaders: readonly string[];
  /** How long a browser may cache a preflight answer, in seconds. */
  maxAge: number;
}

/** Sets `name` on the route's response, copying it first when its headers are immutable (a fetch() result). */
function setHeader(c: Context, name: string, value: string, append = false): void {
  let headers = c.res.headers;
  try {
    if (append) headers.append(name, value);
    else headers.set(name, value);
  } catch {
    c.res = new Response(c.res.body, c.res);
    headers = c.res.headers;
    if (append) headers.append(name, value);
    else headers.set(name, value);
  }
}

export function corsHeaders(options: CorsOptions): MiddlewareHandler {
  const methods = options.allowMethods.join(',');
  const allowHeaders = options.allowHeaders.join(',');
  const expose = options.exposeHeaders.join(',');
  const maxAge = String(options.maxAge);
  return async (c, next) => {
    const allowed = options.allowOrigin(requestHeader(c, 'origin') ?? '');
    if (c.req.method === 'OPTIONS') {
      const headers = new Headers();
      if (allowed) headers.set('Access-Control-Allow-Origin', allowed);
      if (expose) headers.set('Access-Control-Expose-Headers', expose);
      headers.append('Vary', 'Origin');
      headers.set('Access-Control-Max-Age', maxAge);
      if (methods) headers.set('Access-Control-Allow-Methods', methods);
      if (allowHeaders) {
        headers.set('Access-Control-Allow-Headers', allowHeaders);
        headers.append('Vary', 'Access-Control-Request-Headers');
      }
      return new Response(null, { status: 204, statusText: 'No Content', headers });
    }
    const outgoing = nodeResponse(c);
    if (outgoing) {
      if (allowed) outgoing.setHeader('Access-Control-Allow-Origin', allowed);
      if (expose) outgoing.setHeader('Access-Control-Expose-Headers', expose);
      outgoing.setHeader('Vary', 'Origin');
      return next();
    }
    await next();
    if (allowed) setHeader(c, 'Access-Control-Allow-Origin', allowed);
    if (expose) setHeader(c, 'Access-Control-Expose-Headers', expose);
    setHeader(c, 'Vary', 'Origin', true);
  };
}
