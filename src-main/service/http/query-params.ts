/**
 * Reading query parameters the same way on every route that has them (the catalogue, quotes, job and batch lists,
 * exports, the live WebSocket's upgrade URL), so a client meets one set of rules:
 * - a parameter given twice where it takes one value is 400 invalid_request naming it (never "the first wins");
 * - booleans are `true`/`false`/`1`/`0` in any case (`TRUE`, `False`); empty or absent means the default;
 * - numbers are plain decimal (`16`, `16.5`, `-2`): no hex, octal, binary, exponent, `Infinity` or spaces;
 * - points in time are a UTC day `2026-06-01`, a UTC month `2026-06`, or an ISO 8601 time with its zone
 *   (`2026-06-01T12:00:00Z`, `2026-06-01T14:00:00+02:00`); dates that do not exist (`2026-02-30`) are refused.
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

/** `YYYY-MM`, `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM[:SS[.fff]]` with `Z` or `±HH:MM`. */
const INSTANT = /^(\d{4})-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2}))?)?$/;

/**
 * A point in time; absent or empty → undefined. A day or a month stands for its first instant (UTC), or with
 * `edge: 'end'` for the first instant after it, so `to=2026-06-30` takes in the whole of the 30th. Anything else —
 * a time without its zone, a date that does not exist, other words — is 400 invalid_request naming the parameter.
 */
export function instantQuery(query: URLSearchParams, name: string, edge: 'start' | 'end' = 'start'): Date | undefined {
  const raw = singleQuery(query, name);
  if (raw === undefined || raw === '') return undefined;
  const refuse = (): ApiError =>
    new ApiError('invalid_request', `${name} must be a day (2026-06-01), a month (2026-06) or an ISO 8601 time with its zone (2026-06-01T12:00:00Z), got ${JSON.stringify(raw)}`);
  // An unencoded `+02:00` arrives as ` 02:00` (`+` means a space in a query string): read it as meant.
  const m = INSTANT.exec(raw.replace(/^([^ ]+T[\d:.]+) (\d{2}:\d{2})$/, '$1+$2'));
  if (!m) throw refuse();
  const [, y, mo, d, h, mi, sec, frac, zone] = m;
  const year = Number(y);
  const month = Number(mo) - 1;
  const day = d === undefined ? 1 : Number(d);
  const hours = h === undefined ? 0 : Number(h);
  const minutes = mi === undefined ? 0 : Number(mi);
  const seconds = sec === undefined ? 0 : Number(sec);
  const at = new Date(Date.UTC(year, month, day, hours, minutes, seconds, frac === undefined ? 0 : Math.floor(Number(`0.${frac}`) * 1000)));
  at.setUTCFullYear(year); // years 0–99 are not 1900–1999
  // Date.UTC rolls 2026-02-30 over to March: a date that does not exist is refused, not moved.
  if (at.getUTCFullYear() !== year || at.getUTCMonth() !== month || at.getUTCDate() !== day || hours > 23 || minutes > 59 || seconds > 59) throw refuse();
  if (zone !== undefined && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const [zh, zm] = zone.slice(1).split(':').map(Number) as [number, number];
    if (zh > 23 || zm > 59) throw refuse();
    at.setTime(at.getTime() - sign * (zh * 60 + zm) * 60_000);
  }
  if (edge === 'end' && h === undefined) {
    if (d === undefined) at.setUTCMonth(at.getUTCMonth() + 1);
    else at.setUTCDate(at.getUTCDate() + 1);
  }
  return at;
}
