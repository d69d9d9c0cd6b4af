/** Reads a JSON object body: 415 unless Content-Type is application/json, 400 invalid_json unless it parses to an object. */
import type { Context } from 'hono';
import { ApiError } from '../../common/errors.js';

/** Largest JSON body accepted (texts are at most a few thousand chars × 50 items). Default 8 MB. */
export const MAX_JSON_BYTES = 8 * 1024 * 1024;

export async function readJsonObject(c: Context): Promise<Record<string, unknown>> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/json\b/i.test(type)) {
    throw new ApiError('unsupported_media_type', `this route takes Content-Type application/json, got ${type || 'none'}`);
  }
  const declared = Number(c.req.header('content-length') ?? 0);
  if (declared > MAX_JSON_BYTES) throw new ApiError('invalid_request', `JSON body larger than ${MAX_JSON_BYTES} bytes`);
  const text = await c.req.text();
  if (text.length > MAX_JSON_BYTES) throw new ApiError('invalid_request', `JSON body larger than ${MAX_JSON_BYTES} bytes`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new ApiError('invalid_json', `the body is not valid JSON: ${(cause as Error).message}`, { cause });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError('invalid_json', 'the body must be a JSON object');
  }
  return value as Record<string, unknown>;
}

/** An optional string field: absent/null → null; anything but a string → 400 invalid_request naming it. */
export function optionalString(body: Record<string, unknown>, field: string): string | null {
  const value = body[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new ApiError('invalid_request', `${field} must be a string`);
  return value;
}
