/**
 * Reading query parameters the same way on every route that has them (the catalogue, quotes, job and batch lists,
 * exports, the live WebSocket's upgrade URL), so a client meets one set of rules:
 * - a parameter given twice where it takes one value is 400 invalid_request naming it (never "the first wins");
 * - booleans are `true`/`false`/`1`/`0` in any case (`TRUE`, `False`); empty or absent means the default;
 * - numbers are plain decimal (`16`, `16.5`, `-2`): no hex, octal, binary, exponent, `Infinity` or spaces.
 * Every refusal is an ApiError (400 invalid_request unless the caller says otherwise) whose message names the parameter.
 */
import { ApiError, type RequestErrorCode } from '../../common/errors.js';

const DECIMAL = /^-?\d+(\.\d+)?$/;
const TRUE = /^(true|1)$/i;
const FALSE = /^(false|0)$/i;

/** The query of a request URL (a full URL or a path with its query). */
export function queryOf(url: string): URLSearchParams {
  return new URL(url, 'http://localhost').searchParams;
}

/** The one value of `name`, or undefined when absent; 400 when it is given more than once. */
export function singleQuery(query: URLSearchParams, name: string, code: RequestErrorCode = 'invalid_request'): string | undefined {
  const values = query.getAll(name);
  if (values.length > 1) throw new ApiError(code, `the query parameter ${name} was given ${values.length} times; it takes one value`);
  return values[0];
}

/** true/false/1/0 in any case; absent or empty → `fallback`. */
export function booleanQuery(query: URLSearchParams, name: string, fallback = false): boolean {
  const raw = singleQuery(query, name);
  if (raw === undefined || raw === '') return fallback;
  if (TRUE.test(raw)) return true;
  if (FALSE.test(raw)) return false;
  throw new ApiError('invalid_request', `${name} must be true or false (or 1 or 0), got ${JSON.stringify(raw)}`);
}

export interface NumberRule {
  min?: number;
  max?: number;
  /** Whole numbers only. */
  integer?: boolean;
  /** Error code of a refusal. Default invalid_request. */
  code?: RequestErrorCode;
}

/** A plain decimal number within the rule's bounds; absent → undefined. Empty counts as given (and is refused). */
export function numberQuery(query: URLSearchParams, name: string, rule: NumberRule = {}): number | undefined {
  const code = rule.code ?? 'invalid_request';
  const raw = singleQuery(query, name, code);
  if (raw === undefined) return undefined;
  const range = `${rule.min ?? '-∞'}..${rule.max ?? '∞'}`;
  const what = rule.integer ? `a whole number ${range}` : `a decimal number ${range}`;
  const value = DECIMAL.test(raw) ? Number(raw) : NaN;
  if (!Number.isFinite(value) || (rule.integer && !Number.isInteger(value)) || (rule.min !== undefined && value < rule.min) || (rule.max !== undefined && value > rule.max)) {
    throw new ApiError(code, `${name} must be ${what} written in decimal digits, got ${JSON.stringify(raw)}`);
  }
  return value;
}
