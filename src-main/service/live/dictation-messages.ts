/**
 * Parsing and checking the dictation socket's client messages (common/dictation-protocol.ts). Every refusal is a
 * ApiError whose code the client gets in an `error` message; the socket stays open. Unknown fields, top-level
 * or in `session`, are unsupported_param (the API's one rule).
 */
import { refuseUnknownFields } from '../../common/unknown-fields.js';
import { ApiError } from '../../common/errors.js';
import {
  DICTATION_MAX_SAMPLE_RATE,
  DICTATION_MIN_SAMPLE_RATE,
  type DictationClientMessage,
} from '../../common/dictation-protocol.js';
import { MAX_JSON_DEPTH, textNestsPast } from '../http/json-depth.js';

const MESSAGE_FIELDS: Record<DictationClientMessage['type'], readonly string[]> = {
  'session.update': ['type', 'session'],
  'input_audio.end': ['type'],
};
const SESSION_FIELDS = ['sample_rate', 'language'] as const;

/**
 * `languages`: the codes the model takes for `language` ('auto' = its default); an empty list means the model takes
 * no language setting, and any value is refused.
 */
export function parseDictationMessage(raw: string, languages: readonly string[]): DictationClientMessage {
  // Before anything recurses over it (a deep `type` made JSON.stringify overflow: internal_error).
  if (textNestsPast(raw, MAX_JSON_DEPTH)) throw new ApiError('invalid_json', `message nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep; no message of this socket nests more than two`);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new ApiError('invalid_json', 'message is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ApiError('invalid_json', 'message must be a JSON object');
  const msg = value as Record<string, unknown>;
  switch (msg.type) {
    case 'session.update': {
      refuseUnknownFields(msg, MESSAGE_FIELDS['session.update'], '', 'session.update');
      const session = msg.session;
      if (typeof session !== 'object' || session === null || Array.isArray(session)) {
        throw new ApiError('invalid_params', 'session.update needs a session object');
      }
      const fields = session as Record<string, unknown>;
      refuseUnknownFields(fields, SESSION_FIELDS, 'session.', 'session');
      const out: { sample_rate?: number; language?: string } = {};
      if (fields.sample_rate !== undefined) {
        const rate = fields.sample_rate;
        if (typeof rate !== 'number' || !Number.isInteger(rate) || rate < DICTATION_MIN_SAMPLE_RATE || rate > DICTATION_MAX_SAMPLE_RATE) {
          throw new ApiError(
            'invalid_params',
            `session.sample_rate must be a whole number of Hz from ${DICTATION_MIN_SAMPLE_RATE} to ${DICTATION_MAX_SAMPLE_RATE}, got ${JSON.stringify(rate)}`,
          );
        }
        out.sample_rate = rate;
      }
      if (fields.language !== undefined) {
        if (languages.length === 0) throw new ApiError('unsupported_param', 'this model takes no language setting');
        if (typeof fields.language !== 'string' || !languages.includes(fields.language)) {
          throw new ApiError('invalid_params', `session.language must be one of ${languages.join(', ')}, got ${JSON.stringify(fields.language)}`);
        }
        out.language = fields.language;
      }
      return { type: 'session.update', session: out };
    }
    case 'input_audio.end':
      refuseUnknownFields(msg, MESSAGE_FIELDS['input_audio.end'], '', 'input_audio.end');
      return { type: 'input_audio.end' };
    default:
      throw new ApiError(
        'unknown_message_type',
        `unknown message type ${JSON.stringify(msg.type)} (expected session.update or input_audio.end, or binary PCM16 audio)`,
      );
  }
}
