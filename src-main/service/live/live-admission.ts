/**
 * What every live WebSocket route checks before its upgrade completes (text to speech and dictation alike), in this
 * order: the service is not shutting down, a key is given (`Authorization: Bearer` or `api_key`), the key is valid
 * (failed checks count towards the failed-auth limit: 429 `rate_limited`), and a browser's Origin is allowed. A
 * refusal is a plain HTTP response with the JSON error body, then the socket is closed.
 */
import { httpStatusOf } from '../http/http-status.js';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError } from '../../common/errors.js';
import { singleQuery } from '../http/query-params.js';

export interface AdmissionDeps {
  /**
   * The account that owns an API key, or undefined for an unknown key; may throw an ApiError (429 rate_limited for
   * an address that failed too many key checks). `address` is the client's.
   */
  authenticate(key: string, address: string): string | undefined | Promise<string | undefined>;
  /** Whether a browser origin may open a socket (clients with no Origin always may). */
  isOriginAllowed(origin: string): boolean;
}

export interface AdmittedClient {
  key: string;
  accountId: string;
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
};

/** Answers a refused upgrade with the error's status and JSON body, then closes the socket. */
export function refuseUpgrade(socket: Duplex, error: ApiError): void {
  const status = httpStatusOf(error);
  const body = JSON.stringify({ error: { code: error.code, message: error.message } });
  const retryAfter = error.retryAfterSeconds !== null ? `Retry-After: ${Math.max(1, Math.ceil(error.retryAfterSeconds))}\r\n` : '';
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `${status === 401 ? 'WWW-Authenticate: Bearer\r\n' : ''}${retryAfter}Connection: close\r\n\r\n${body}`,
  );
  socket.once('finish', () => socket.destroy());
}

function keyOf(req: IncomingMessage, url: URL): string | undefined {
  const header = req.headers.authorization;
  if (header) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match?.[1];
  }
  return singleQuery(url.searchParams, 'api_key');
}

/** The client's key and account, or an ApiError to refuse the upgrade with. */
export async function admitClient(req: IncomingMessage, url: URL, deps: AdmissionDeps): Promise<AdmittedClient> {
  const key = keyOf(req, url);
  if (!key) throw new ApiError('unauthorized', 'an API key is required (Authorization: Bearer or the api_key query parameter)');
  const accountId = await deps.authenticate(key, req.socket.remoteAddress ?? 'unknown');
  if (!accountId) throw new ApiError('unauthorized', 'the API key is not valid');
  const origin = req.headers.origin;
  if (origin !== undefined && !deps.isOriginAllowed(origin)) throw new ApiError('forbidden_origin', `origin ${origin} is not allowed`);
  return { key, accountId };
}
