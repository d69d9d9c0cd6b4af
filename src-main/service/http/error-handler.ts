/**
 * The one place where failures become HTTP answers (docs/design.md §6.5): ApiError → its status and
 * `{"error": {"code", "message"}}`, or the body of the error dialect that claims the path (the app gives one: the
 * OpenAI-compatible routes' shape, openai/openai-error.ts); anything unexpected → 500 internal_error with the cause
 * logged, never a crash. This layer knows no dialect itself.
 */
import { httpStatusOf } from './http-status.js';
import type { Context, Env, Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ApiError } from '../../common/errors.js';
import type { Log } from '../../common/log.js';
import { UNEXPECTED_ERROR } from '../../common/error-messages.js';

/**
 * A body that stopped arriving (408) is done with: the answer closes the connection. Any other refusal before the
 * body was read keeps the connection and the rest of the body is discarded once the answer is out
 * (http/unread-body.ts): closing while the client still sends made Node's fetch see EPIPE instead of the status.
 */
function closeIfBodyStalled(c: Context, error: ApiError): void {
  if (error.code !== 'request_timeout') return;
  const incoming = (c.env as { incoming?: { complete?: boolean } } | undefined)?.incoming;
  if (incoming && incoming.complete === false) c.header('Connection', 'close');
}

/** Routes that word their error bodies their own way (same statuses), chosen by path. */
export interface ErrorDialect {
  claims(path: string): boolean;
  body(error: ApiError): unknown;
}

function errorResponse(c: Context, error: ApiError, dialects: readonly ErrorDialect[]): Response {
  closeIfBodyStalled(c, error);
  if (error.code === 'unauthorized') c.header('WWW-Authenticate', 'Bearer realm="voxdesk"');
  if (error.retryAfterSeconds !== null) c.header('Retry-After', String(Math.max(1, Math.ceil(error.retryAfterSeconds))));
  const path = new URL(c.req.url).pathname;
  const dialect = dialects.find((d) => d.claims(path));
  return c.json(dialect ? dialect.body(error) : error.toBody(), httpStatusOf(error) as ContentfulStatusCode);
}

function makeErrorHandler(log: Log, dialects: readonly ErrorDialect[]) {
  return (err: Error, c: Context): Response => {
    if (err instanceof ApiError) return errorResponse(c, err, dialects);
    if (err instanceof HTTPException && err.status < 500) {
      const code = err.status === 404 ? 'not_found' : err.status === 413 ? 'file_too_large' : 'invalid_request';
      return errorResponse(c, new ApiError(code, err.message || 'bad request'), dialects);
    }
    log.info(`internal error on ${c.req.method} ${new URL(c.req.url).pathname}: ${err.stack ?? String(err)}`);
    return errorResponse(c, new ApiError('internal_error', UNEXPECTED_ERROR), dialects);
  };
}

/**
 * Installs the handler and the JSON 404 on an app: buildApp's (with the OpenAI dialect), and a test's that mounts
 * one route sub-app.
 */
export function handleErrors<E extends Env>(app: Hono<E>, log: Log, dialects: readonly ErrorDialect[] = []): Hono<E> {
  app.onError(makeErrorHandler(log, dialects));
  app.notFound((c) => errorResponse(c, new ApiError('not_found', `no route ${c.req.method} ${new URL(c.req.url).pathname}`), dialects));
  return app;
}
