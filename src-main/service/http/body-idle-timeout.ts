/**
 * A request body that stops arriving is cut: when a route waits `idleMs` (default 30 s) for the next bytes of a body
 * and none come, the read fails with 408 request_timeout, the route stops (a multipart upload deletes its partial
 * files) and the answer closes the connection. Only time spent waiting on the client counts: a route that reads
 * slowly (disk back-pressure) is not the client's fault.
 *
 * A JSON body over node:http is not wrapped: json-body.ts reads it straight from Node's request with the same rule
 * (readDirectBody), without the fetch Request, web streams and wrapper the adapter would build for it (about half a
 * millisecond of every JSON POST, twice per forwarded job).
 *
 * Node's own total-time limit (server.requestTimeout, 5 minutes) is switched off in its favour (allowWholeBodies): a
 * 500 MB upload on a slow line may take longer than that while never being idle, and a client that trickles a byte
 * now and then is bounded by the per-account upload limits (uploads/upload-budget.ts).
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { IncomingMessage, Server } from 'node:http';
import { ApiError } from '../../common/errors.js';
import type { AppEnv } from '../app-env.js';
import { nodeRequest, requestHeader } from './node-request.js';
import { gate } from './route-gates.js';

/** How long a request body may send nothing before it is cut. Default 30 s. */
export const DEFAULT_BODY_IDLE_MS = 30_000;

/** The content types read by json-body.ts (readJsonObject refuses any other with 415). */
export const JSON_CONTENT_TYPE = /^application\/json\b/i;

function idleError(idleMs: number): ApiError {
  const spell = idleMs >= 1000 ? `${Math.round(idleMs / 1000)} s` : `${idleMs} ms`;
  return new ApiError('request_timeout', `the request body sent nothing for ${spell} and was cut off; send it again`);
}

/** Node requests whose JSON body the gate left to readDirectBody, with the idle limit to read it under. */
const directBodies = new WeakMap<IncomingMessage, number>();

/** A body stream that errors with 408 request_timeout when a read waits longer than idleMs. */
export function guardIdleBody(body: ReadableStream<Uint8Array>, idleMs: number): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let timer: NodeJS.Timeout | undefined;
        const read = reader.read();
        // When the body is cut, this read is left pending until the connection closes: its failure is expected.
        read.catch(() => undefined);
        const idle = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(idleError(idleMs)), idleMs);
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
    const incoming = nodeRequest(c);
    if (incoming && JSON_CONTENT_TYPE.test(requestHeader(c, 'content-type') ?? '')) {
      directBodies.set(incoming, idleMs);
      return undefined;
    }
    const raw = c.req.raw;
    if (raw.body) {
      c.req.raw = new Request(raw, { body: guardIdleBody(raw.body, idleMs), duplex: 'half' } as RequestInit);
    }
    return undefined;
  });
}

/**
 * The whole body of a request the gate left unwrapped (a JSON body over node:http), read from Node's request under
 * the same idle rule (408 request_timeout when nothing arrives for the limit), refused with `tooLarge()` as soon as
 * it passes `max` bytes; null for any other request (read `c.req.raw` as usual).
 */
export function readDirectBody(c: Context, max: number, tooLarge: () => Error): Promise<Buffer> | null {
  const incoming = nodeRequest(c);
  const idleMs = incoming && directBodies.get(incoming);
  if (!incoming || idleMs === undefined) return null;
  directBodies.delete(incoming);
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let timer: NodeJS.Timeout | undefined;
    const settle = (error: Error | null): void => {
      clearTimeout(timer);
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('close', onClose);
      if (error) {
        incoming.pause();
        reject(error);
      } else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => settle(idleError(idleMs)), idleMs);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > max) return settle(tooLarge());
      chunks.push(chunk);
      arm();
    };
    const onEnd = (): void => settle(null);
    const onError = (error: Error): void => settle(error);
    const onClose = (): void => {
      if (!incoming.complete) settle(new Error('the client closed the connection before the body was sent'));
    };
    incoming.on('data', onData);
    incoming.once('end', onEnd);
    incoming.once('error', onError);
    incoming.once('close', onClose);
    arm();
  });
}

/** Switches off Node's 5-minute limit on a whole request (see above). */
export function allowWholeBodies(server: Server): void {
  server.requestTimeout = 0;
}
