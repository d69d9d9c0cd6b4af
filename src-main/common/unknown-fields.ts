/**
 * The API's one rule for fields a request does not take (JSON bodies and their batch items, multipart parts, settings,
 * the live sockets' messages): refuse with unsupported_param naming the first unknown field, never ignore it silently.
 * One wording everywhere: the field's path, what the owner takes, and to leave it out.
 */
import { ApiError } from './errors.js';

/** The message for the first field of `object` not in `allowed`, or null when every field is known. */
export function unknownFieldMessage(object: Record<string, unknown>, allowed: readonly string[], prefix = '', owner = 'this route'): string | null {
  const unknown = Object.keys(object).find((key) => !allowed.includes(key));
  if (unknown === undefined) return null;
  const settings = allowed.includes('params') ? " (a model's own settings go inside params)" : '';
  return `unknown field "${prefix}${unknown}"; ${owner} takes ${allowed.join(', ')}: leave it out${settings}`;
}

/** Throws ApiError unsupported_param for the first field of `object` not in `allowed` (see unknownFieldMessage). */
export function refuseUnknownFields(object: Record<string, unknown>, allowed: readonly string[], prefix = '', owner = 'this route'): void {
  const message = unknownFieldMessage(object, allowed, prefix, owner);
  if (message !== null) throw new ApiError('unsupported_param', message);
}
