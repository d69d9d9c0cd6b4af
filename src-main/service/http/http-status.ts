/**
 * The one place an error's code becomes an HTTP status: the service's edge (the error handler, refused socket
 * upgrades, the OpenAI dialect's error bodies). Errors raised below the service floor carry a code and a message only
 * (common/errors.ts); the table of codes and statuses is the API's contract (REQUEST_ERRORS).
 */
import { REQUEST_ERRORS, type RequestErrorCode } from '../../common/errors.js';

export function httpStatusOf(error: { code: RequestErrorCode }): number {
  return REQUEST_ERRORS[error.code];
}
