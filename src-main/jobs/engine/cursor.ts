/** Opaque list cursors: the (created_at, id) of the last row of a page, base64url JSON. */
import { ApiError } from '../../common/errors.js';
import type { PageKey } from '../../store/jobs-repo.js';

export function encodeCursor(key: PageKey): string {
  return Buffer.from(JSON.stringify([key.created_at, key.id])).toString('base64url');
}

export function decodeCursor(cursor: string | null | undefined): PageKey | null {
  if (!cursor) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string') {
      return { created_at: value[0], id: value[1] };
    }
  } catch {
    // fall through to the error below
  }
  throw new ApiError('invalid_request', 'cursor is not one this service returned; start again without it');
}

/** Page size: default 20, at most 100. */
export function pageLimit(limit: number | undefined): number {
  if (limit === undefined) return 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new ApiError('invalid_request', `limit must be an integer from 1 to 100, got ${limit}`);
  }
  return limit;
}
