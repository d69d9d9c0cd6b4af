/** Reads a JSON object body: 415 unless Content-Type is application/json, 400 invalid_json unless it parses to an object. */
import type { Context } from 'hono';
import { ApiError } from '../../common/errors.js';
import { JSON_CONTENT_TYPE, readDirectBody } from './body-idle-timeout.js';
import { MAX_JSON_DEPTH, textNestsPast } from './json-depth.js';
import { requestHeader } from './node-request.js';

/** Largest JSON body accepted (texts are at most a few thousand chars × 50 items). Default 8 MB. */
export const MAX_JSON_BYTES = 8 * 1024 * 1024;

export async function readJsonObject(c: Context): Promise<Record<string, unknown>> {
  const type = requestHeader(c, 'content-type') ?? '';
  if (!JSON_CONTENT_TYPE.test(type)) {
    const multipart = /^multipart\//i.test(type) ? ' (multipart/form-data is for the routes that take a recording, such as POST /v1/speech-to-text)' : '';
    throw new ApiError(
      'unsupported_media_type',
      `this route takes a JSON body with Content-Type: application/json, but Content-Type was ${type ? `"${type}"` : 'not set'}${multipart}: send the fields as one JSON object, e.g. curl -H 'Content-Type: application/json' -d '{"model": "…", …}'`,
    );
  }
  const text = await readText(c, MAX_JSON_BYTES);
  const tooDeep = textNestsPast(text, MAX_JSON_DEPTH);
  if (tooDeep) throw nestingError(tooDeep.field, tooDeep.depth);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    const empty = text.trim() === '' ? 'the body is empty' : `the body is not valid JSON (${(cause as Error).message})`;
    throw new ApiError('invalid_json', `${empty}: send one JSON object with the route's fields, e.g. {"model": "…", "text": "…"}; check the quotes and commas`, { cause });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError('invalid_json', `the body must be a JSON object ({…} with the route's fields), not ${describeJson(value)}`);
  }
  return value as Record<string, unknown>;
}

/**
 * A body nested past MAX_JSON_DEPTH, refused before JSON.parse and anything that recurses over the value: `params`
 * is invalid_params (the field a client fills from its own data), anything else invalid_json.
 */
function nestingError(field: string | null, depth: number): ApiError {
  const where = field === null ? 'the JSON body' : `the field "${field}"`;
  const message = `${where} nests objects and arrays ${depth} levels deep; at most ${MAX_JSON_DEPTH} are accepted (no field of this API nests more than a few levels): send ${field === 'params' ? 'params as a flat object of the model\'s params (see params_schema in GET /v1/models/{id})' : 'the fields the route documents'}`;
  return new ApiError(field === 'params' ? 'invalid_params' : 'invalid_json', message);
}

/**
 * Reads a body as UTF-8, refusing it as soon as it grows past `max` bytes (chunked bodies too): over node:http
 * straight from Node's request (body-idle-timeout.ts readDirectBody), else through the fetch Request.
 */
async function readText(c: Context, max: number): Promise<string> {
  const tooLarge = (): ApiError =>
    new ApiError('invalid_request', `the JSON body is larger than ${max} bytes, the most a JSON request may have: a batch takes at most 50 texts; send fewer or shorter ones`);
  if (Number(requestHeader(c, 'content-length') ?? 0) > max) throw tooLarge();
  const direct = readDirectBody(c, max, tooLarge);
  if (direct) return (await direct).toString('utf8');
  const request = c.req.raw;
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** An optional string field: absent/null → null; anything but a string → 400 invalid_request naming it. */
export function optionalString(body: Record<string, unknown>, field: string): string | null {
  const value = body[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new ApiError('invalid_request', `${field} must be a string, not ${describeJson(value)}: send it in quotes`);
  return value;
}

/** "an array", "the number 3", "true"…: what a JSON value is, for messages that say what was sent instead. */
export function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number') return `the number ${value}`;
  return String(value);
}
