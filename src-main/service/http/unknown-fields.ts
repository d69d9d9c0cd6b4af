/**
 * The API's one rule for fields a request does not take (JSON bodies, their batch items, multipart parts, the live
 * WebSocket's messages): refuse with unsupported_param naming the first unknown field, never ignore it silently.
 * This module finds the field and words the message; each caller throws its own error type (ApiError over HTTP, a
 * protocol error on the WebSocket).
 */

/** The message for the first field of `object` not in `allowed`, or null when every field is known. */
export function unknownFieldMessage(object: Record<string, unknown>, allowed: readonly string[], prefix = '', owner = 'this route'): string | null {
  const unknown = Object.keys(object).find((key) => !allowed.includes(key));
  if (unknown === undefined) return null;
  const settings = allowed.includes('params') ? " (a model's own settings go inside params)" : '';
  return `unknown field "${prefix}${unknown}"; ${owner} takes ${allowed.join(', ')}: leave it out${settings}`;
}
