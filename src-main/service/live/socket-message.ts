/**
 * What every live socket's text message goes through first (the speech socket, live-protocol.ts; the dictation
 * socket, dictation-messages.ts): one JSON object, not nested deeper than any message of ours, and a
 * `session.update`'s session object with only the fields the socket knows. Each refusal is an ApiError the client
 * gets as an `error` message; the socket stays open.
 */
import { ApiError } from '../../common/errors.js';
import { refuseUnknownFields } from '../../common/unknown-fields.js';
import { MAX_JSON_DEPTH, textNestsPast } from '../http/json-depth.js';

/** The message as an object; invalid_json when it is too deep, not JSON, or not an object. */
export function socketMessageObject(raw: string): Record<string, unknown> {
  // Before anything recurses over it (a deep `type` made JSON.stringify overflow: internal_error).
  if (textNestsPast(raw, MAX_JSON_DEPTH)) throw new ApiError('invalid_json', `message nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep; no message of this socket nests more than two`);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new ApiError('invalid_json', 'message is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ApiError('invalid_json', 'message must be a JSON object');
  return value as Record<string, unknown>;
}

/**
 * The `session` object of a `session.update` message: the message has only `messageFields`, its session is an object
 * with only `sessionFields` (unsupported_param otherwise, the API's one rule; invalid_params when it is not an object).
 */
export function sessionUpdateFields(msg: Record<string, unknown>, messageFields: readonly string[], sessionFields: readonly string[]): Record<string, unknown> {
  refuseUnknownFields(msg, messageFields, '', 'session.update');
  const session = msg.session;
  if (typeof session !== 'object' || session === null || Array.isArray(session)) throw new ApiError('invalid_params', 'session.update needs a session object');
  const fields = session as Record<string, unknown>;
  refuseUnknownFields(fields, sessionFields, 'session.', 'session');
  return fields;
}
