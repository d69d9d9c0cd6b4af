/**
 * The Node request and response under a Hono context, when there is one (the service over node:http; not
 * `app.request` in tests). Hot paths read request headers from Node's own parsed object and set response headers on
 * Node's response, instead of going through the fetch `Headers` the adapter would build for each request: on a poll of
 * a job, building and converting those objects cost as much as the SQL (bench/api-overhead.ts).
 */
import type { Context } from 'hono';
import type { IncomingMessage, ServerResponse } from 'node:http';

interface NodeBindings {
  incoming?: IncomingMessage;
  outgoing?: ServerResponse;
}

function bindings(c: Context): NodeBindings | undefined {
  return c.env as NodeBindings | undefined;
}

/**
 * A request header by lower-case name. Over node:http a repeated header reads as Node parses it: the first
 * Authorization wins, repeated Origin values are joined with ", " (as fetch Headers would join them).
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = bindings(c)?.incoming;
  if (!incoming) return c.req.header(name);
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Node's request when the request came over node:http (its body not yet read by anyone unless said so). */
export function nodeRequest(c: Context): IncomingMessage | undefined {
  const incoming = bindings(c)?.incoming;
  return incoming && typeof incoming.on === 'function' ? incoming : undefined;
}

/** Node's response when the request came over node:http (headers set on it join whatever the route answers). */
export function nodeResponse(c: Context): ServerResponse | undefined {
  const outgoing = bindings(c)?.outgoing;
  return outgoing && typeof outgoing.setHeader === 'function' ? outgoing : undefined;
}
