/**
 * CORS for /v1, answering like `hono/cors` (same headers, same 204 preflight) but without its cost on every request.
 *
 * Why not `hono/cors`: it writes its headers into `c.res` *before* the route runs, so the route's response is then
 * merged into that placeholder, and once more for `Vary` afterwards. With the Node adapter each merge turns the
 * adapter's lightweight string response into a full fetch Response with a body stream, and the JSON of a job poll was
 * written through a stream reader instead of one `end(body)`: about half of what a GET of a job cost the service
 * (bench/api-overhead.ts). Here the headers go once onto Node's response before the route runs (Node merges them with
 * the route's own when it writes the head), or, without node:http (app.request), onto the context's response first.
 */
import type { MiddlewareHandler } from 'hono';
import { nodeResponse, requestHeader } from './node-request.js';
import { gate } from './route-gates.js';

export interface CorsOptions {
  /** The origin to echo back in Access-Control-Allow-Origin, or null for none (the browser then refuses). */
  allowOrigin(origin: string): string | null;
  allowMethods: readonly string[];
  allowHeaders: readonly string[];
  exposeHeaders: readonly string[];
  /** How long a browser may cache a preflight answer, in seconds. */
  maxAge: number;
}

/**
 * A gate (route-gates.ts): the preflight is answered here; any other request gets its headers before the route runs,
 * on Node's response (Node merges them with the route's own when it writes the head) or, without node:http
 * (`app.request`), on the context's response, which Hono merges into whatever the route or the error handler answers.
 */
export function corsHeaders(options: CorsOptions): MiddlewareHandler {
  const methods = options.allowMethods.join(',');
  const allowHeaders = options.allowHeaders.join(',');
  const expose = options.exposeHeaders.join(',');
  const maxAge = String(options.maxAge);
  return gate((c) => {
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
      return undefined;
    }
    const headers = c.res.headers;
    if (allowed) headers.set('Access-Control-Allow-Origin', allowed);
    if (expose) headers.set('Access-Control-Expose-Headers', expose);
    headers.append('Vary', 'Origin');
    return undefined;
  });
}
