/**
 * A request body that stops arriving is cut: when a route waits `idleMs` (default 30 s) for the next bytes of a body
 * and none come, the read fails with 408 request_timeout, the route stops (a multipart upload deletes its partial
 * files) and the answer closes the connection. Only time spent waiting on the client counts: a route that reads
 * slowly (disk back-pressure) is not the client's fault.
 *
 * Node's own total-time limit (server.requestTimeout, 5 minutes) is switched off in its favour (allowWholeBodies): a
 * 500 MB upload on a slow line may take longer than that while never being idle, and a client that trickles a byte
 * now and then is bounded by the per-account upload limits (uploads/upload-budget.ts).
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { Server } from 'node:http';
import { ApiError } from '../../common/errors.js';
import type { AppEnv } from '../app-env.js';
import { gate } from './route-gates.js';

/** How long a request body may send nothing before it is cut. Default 30 s. */
export const DEFAULT_BODY_IDLE_MS = 30_000;

/** A body stream that errors with 408 request_timeout when a read waits longer than idleMs. */
export function guardIdleBody(body: ReadableStream<Uint8Array>, idleMs: number): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const spell = idleMs >= 1000 ? `${Math.round(idleMs / 1000)} s` : `${idleMs} ms`;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let timer: NodeJS.Timeout | undefined;
        const read = reader.read();
        // When the body is cut, this read is left pending until the connection closes: its failure is expected.
        read.catch(() => undefined);
        const idle = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new ApiError('request_timeout', `the request body sent nothing for ${spell} and was cut off; send it again`)), idleMs);
        });
        try {
          const { done, value } = await Promise.race([read, idle]);
          if (done) controller.close();
          else controller.enqueue(value);
        } catch (error) {
          controller.error(error);
        } finally {
          clearTimeout(timer);
        }
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

/** Wraps every request body in guardIdleBody (routes read c.req.raw as usual). A gate (http/route-gates.ts). */
export function cutIdleBodies(idleMs: number): MiddlewareHandler<AppEnv> {
  return gate((c: Context<AppEnv>) => {
    // The method first: on the node adapter's lightweight request, reading `.body` builds a full fetch Request (an
    // AbortController, Headers, a stream) — work a GET, which has no body, must not pay for on every poll.
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return undefined;
    const raw = c.req.raw;
    if (raw.body) {
      c.req.raw = new Request(raw, { body: guardIdleBody(raw.body, idleMs), duplex: 'half' } as RequestInit);
    }
    return undefined;
  });
}

/** Switches off Node's 5-minute limit on a whole request (see above). */
export function allowWholeBodies(server: Server): void {
  server.requestTimeout = 0;
}
