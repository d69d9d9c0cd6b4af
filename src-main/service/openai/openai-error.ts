/**
 * Errors on the OpenAI-compatible routes (`/v1/audio/*`) in the shape OpenAI's clients parse,
 * `{"error": {"message", "type", "param", "code"}}`, with the same HTTP statuses as everywhere else — which are the
 * statuses OpenAI uses, so the official SDKs raise their usual classes (400 BadRequestError, 401
 * AuthenticationError, 404 NotFoundError, 409 ConflictError, 422 UnprocessableEntityError, 429 RateLimitError,
 * 5xx InternalServerError). `code` keeps Voxdesk's snake_case codes, except the two OpenAI clients look for
 * (`invalid_api_key`, `model_not_found`). The central handler (http/error-handler.ts) takes it as the dialect of
 * these paths.
 */
import { httpStatusOf } from '../http/http-status.js';
import type { ApiError } from '../../common/errors.js';
import type { ErrorDialect } from '../http/error-handler.js';

export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** Paths whose errors take OpenAI's shape. */
export function isOpenAiPath(path: string): boolean {
  return path.startsWith('/v1/audio/');
}

function errorType(status: number): string {
  if (status === 401) return 'invalid_request_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

function errorCode(error: Pick<ApiError, 'code' | 'param'>): string {
  if (error.code === 'unauthorized') return 'invalid_api_key';
  if (error.code === 'not_found' && error.param === 'model') return 'model_not_found';
  return error.code;
}

export function openAiErrorBody(error: Pick<ApiError, 'code' | 'param' | 'message'>): OpenAiErrorBody {
  return { error: { message: error.message, type: errorType(httpStatusOf(error)), param: error.param, code: errorCode(error) } };
}

/** The OpenAI-compatible routes' error dialect, for the central handler. */
export const OPENAI_ERROR_DIALECT: ErrorDialect = { claims: isOpenAiPath, body: openAiErrorBody };
