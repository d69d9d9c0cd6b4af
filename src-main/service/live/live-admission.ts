/**
 * What every WebSocket route checks before its upgrade completes (live text to speech, dictation, capture): the
 * service's one key check (auth/authenticate.ts: the Origin, the key from `Authorization: Bearer` or `api_key`, the
 * failed-check limit). A refusal is a plain HTTP response with the JSON error body, then the socket is closed.
 */
import { httpStatusOf } from '../http/http-status.js';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError } from '../../common/errors.js';
import { authenticate, type Authentication } from '../auth/authenticate.js';
import { singleQuery } from '../http/query-params.js';

export interface AdmissionDeps {
  /** The service's key check (auth/authenticate.ts). */
  authentication: Authentication;
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
  let key = '';
  const owner = await authenticate(deps.authentication, {
    origin: req.headers.origin,
    address: () => req.socket.remoteAddress ?? 'unknown',
    key: () => {
      const given = keyOf(req, url);
      if (!given) throw new ApiError('unauthorized', 'an API key is required (Authorization: Bearer or the api_key query parameter)');
      return (key = given);
    },
  });
  return { key, accountId: owner.accountId };
}
