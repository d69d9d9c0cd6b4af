/**
 * Messages of the live text-to-speech WebSocket (spec "Events", with the fields the spec leaves open decided here).
 * Client → server: session.update, speak, cancel. Server → client: session.created, response.created, binary PCM16
 * frames, response.done, error.
 */
import { refuseUnknownFields } from '../../common/unknown-fields.js';
import { ApiError } from '../../common/errors.js';
import { sessionUpdateFields, socketMessageObject } from './socket-message.js';

export interface SessionInfo {
  id: string;
  model: string;
  sample_rate: number;
  format: 'pcm_s16le';
  channels: 1;
  speed: number;
  /** Samples per binary frame; only the last frame of a response may be shorter. */
  frame_samples: number;
}

export type ServerMessage =
  | { type: 'session.created'; session: SessionInfo }
  | { type: 'session.updated'; session: SessionInfo }
  | { type: 'response.created'; response_id: string; text_chars: number }
  | {
      type: 'response.done';
      response_id: string;
      audio_seconds: number;
      samples: number;
      cancelled: boolean;
    }
  | { type: 'error'; error: { code: string; message: string }; response_id?: string };

export type ClientMessage =
  | { type: 'session.update'; session: { speed?: number } }
  | { type: 'speak'; text: string }
  | { type: 'cancel' };

/** Fields each client message takes; any other field is refused with unsupported_param (the API's one rule). */
const MESSAGE_FIELDS: Record<ClientMessage['type'], readonly string[]> = {
  'session.update': ['type', 'session'],
  speak: ['type', 'text'],
  cancel: ['type'],
};
const SESSION_FIELDS = ['speed'] as const;

/**
 * Parses and checks one text message; throws ApiError with the code the client gets (as an `error` message:
 * the socket stays open). Unknown fields, top-level or in `session`, are 400-style unsupported_param errors.
 */
export function parseClientMessage(raw: string, acceptsSpeed: boolean): ClientMessage {
  const msg = socketMessageObject(raw);
  switch (msg.type) {
    case 'session.update': {
      const speed = sessionUpdateFields(msg, MESSAGE_FIELDS['session.update'], SESSION_FIELDS).speed;
      if (speed === undefined) return { type: 'session.update', session: {} };
      if (!acceptsSpeed) throw new ApiError('unsupported_param', 'this model does not accept speed');
      if (typeof speed !== 'number' || !(speed >= 0.5 && speed <= 2)) {
        throw new ApiError('invalid_params', 'session.speed must be a number from 0.5 to 2');
      }
      return { type: 'session.update', session: { speed } };
    }
    case 'speak': {
      refuseUnknownFields(msg, MESSAGE_FIELDS.speak, '', 'speak');
      if (typeof msg.text !== 'string' || msg.text.trim() === '') throw new ApiError('text_required', 'speak needs non-empty text');
      return { type: 'speak', text: msg.text };
    }
    case 'cancel':
      refuseUnknownFields(msg, MESSAGE_FIELDS.cancel, '', 'cancel');
      return { type: 'cancel' };
    default:
      throw new ApiError(
        'unknown_message_type',
        `unknown message type ${JSON.stringify(msg.type)} (expected session.update, speak or cancel)`,
      );
  }
}
