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
import { sessionUpdateFields, socketMessageObject } from './socket-message.js';

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
  const msg = socketMessageObject(raw);
  switch (msg.type) {
    case 'session.update': {
      const fields = sessionUpdateFields(msg, MESSAGE_FIELDS['session.update'], SESSION_FIELDS);
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
