/**
 * The one place where failures become HTTP answers (design.md §6.5): ApiError → its status and
 * `{"error": {"code", "message"}}`; anything unexpected → 500 internal_error with the cause logged, never a crash.
 */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ApiError, type ErrorBody } from '../../common/errors.js';

export function errorResponse(c: Context, error: ApiError): Response {
  if (error.code === 'unauthorized') c.header('WWW-Authenticate', 'Bearer realm="voxdesk"');
  return c.json(error.toBody(), error.status as ContentfulStatusCode);
}

export function makeErrorHandler(log: (message: string) => void) {
  return (err: Error, c: Context): Response => {
    if (err instanceof ApiError) return errorResponse(c, err);
    if (err instanceof HTTPException && err.status < 500) {
      const code = err.status === 404 ? 'not_found' : err.status === 413 ? 'file_too_large' : 'invalid_request';
      return errorResponse(c, new ApiError(code, err.message || 'bad request'));
    }
    log(`internal error on ${c.req.method} ${new URL(c.req.url).pathname}: ${err.stack ?? String(err)}`);
    const body: ErrorBody = { error: { code: 'internal_error', message: 'the service hit an unexpected error; it is logged' } };
    return c.json(body, 500);
  };
}

export function notFound(c: Context): Response {
  return errorResponse(c, new ApiError('not_found', `no route ${c.req.method} ${new URL(c.req.url).pathname}`));
}
