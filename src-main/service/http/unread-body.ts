/**
 * A request answered before its body was read (401 before the key is known, 415 on a JSON route, 413 at the limit,
 * a bad multipart part) keeps its connection: the rest of the body is read and thrown away, within bounds, so the
 * client finishes sending and reads the answer (issue 32, point 5). Closing instead — `Connection: close`, or a
 * socket destroyed half a second later as @hono/node-server's own clean-up did — resets the connection while the
 * client is still writing, and Node's fetch then reports EPIPE or ECONNRESET instead of the status.
 *
 Once the answer is finished nobody needs the body any more: whatever reader stopped half-way (the multipart reader,
 * the JSON reader at its size limit) is detached, as Node's own `req._dump()` does for a body no one touched, and the
 * rest is read here and counted. The connection closes only when more than `maxBytes` arrive (the service's upload
 * limit: a body that large is no request this service takes) or nothing arrives for `idleMs`; otherwise it stays
 * open for the client's next request.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export interface DiscardLimits {
  /** Most bytes of an unread body discarded after the answer; past it the connection closes. */
  maxBytes: number;
  /** Longest pause in a discarded body before the connection closes. */
  idleMs: number;
}

/** Counts what is left of `request`'s body once its answer is finished; closes the connection past the limits. */
export function boundUnreadBody(request: IncomingMessage, limits: DiscardLimits): void {
  if (request.complete || request.destroyed) return;
  let bytes = 0;
  let timer: NodeJS.Timeout | undefined;
  const stop = (): void => {
    clearTimeout(timer);
    request.off('data', onData);
    request.off('end', stop);
    request.off('close', stop);
    request.off('error', stop);
  };
  const close = (): void => {
    stop();
    request.socket?.destroy();
  };
  const arm = (): void => {
    clearTimeout(timer);
    timer = setTimeout(close, limits.idleMs);
    timer.unref();
  };
  const onData = (chunk: Buffer): void => {
    bytes += chunk.length;
    if (bytes > limits.maxBytes) close();
    else arm();
  };
  // A reader that stopped (a web stream over the request, paused when its queue filled) would otherwise hold the
  // rest in memory or keep the request paused: the answer is out, so the bytes only need discarding.
  request.removeAllListeners('data');
  request.on('data', onData);
  request.once('end', stop);
  request.once('close', stop);
  request.once('error', stop);
  arm();
  request.resume();
}

/** Bounds the unread body of every request this server answers (see boundUnreadBody). */
export function boundUnreadBodies(server: Server, limits: DiscardLimits): void {
  // First among the request listeners: an answer made synchronously by the app's listener is already complete when
  // the listeners after it run.
  server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    // A poll has no body: nothing to add to the service's most frequent answer.
    if (request.method === 'GET' || request.method === 'HEAD') return;
    // At 'prefinish' (the answer is complete), before Node's own clean-up at 'finish' would dump the rest unseen.
    response.once('prefinish', () => boundUnreadBody(request, limits));
  });
}
