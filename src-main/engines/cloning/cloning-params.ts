/**
 * The params of the zero-shot voice products (voice-cloning, voice-continuation) on ZipVoice and Pocket TTS: the
 * generation settings sherpa-onnx takes per request (num_steps, speed), what the continuation returns, and the output
 * settings every on-device voice takes (tts/output-params.ts). The request parts are in the schema's description, so
 * GET /v1/models/{id} documents the whole request.
 */
import type { JsonSchema } from '../../common/api-types.js';
import { JobError } from '../../common/errors.js';
import { OUTPUT_PARAMS_SCHEMA, outputFormatRules, SPEED_SCHEMA } from '../tts/output-params.js';

/** Shortest and longest reference recording taken (seconds, inclusive), checked when the request arrives. */
export const MIN_REFERENCE_SECONDS = 1;
export const MAX_REFERENCE_SECONDS = 30;
/** Longest text one job speaks (code points); the catalogue's limits.max_text_chars. */
export const MAX_CLONING_TEXT_CHARS = 1000;
/** Longest recording converted (seconds): the catalogue's limits.max_audio_seconds of a zero-shot voice. */
export const MAX_CONVERSION_SECONDS = 600;
/** The largest upload of a voice's recording (reference_audio, a continuation's audio): 30 s of 48 kHz stereo float WAV is 11.5 MB. */
export const MAX_REFERENCE_BYTES = 16 * 1024 * 1024;

export const CLONING_REQUEST =
  'POST /v1/voice-cloning (and /batch): multipart parts in order model, params, name, reference_audio (a file: 1-30 s of ' +
  'the voice to clone, any rate or format ffmpeg reads), optional reference_text (the words said in reference_audio; ' +
  'when left out the best installed speech-to-text model transcribes it), text (what to say; a batch takes several ' +
  'text parts, one job each, all in the same voice).';
export const CONTINUATION_REQUEST =
  'POST /v1/voice-continuation (no batch route): multipart parts in order model, params, name, audio (a file: the ' +
  '1-30 s recording to continue), optional reference_text (the words said in audio; transcribed when left out), text ' +
  '(the words the continuation says). The answer is the recording followed by the new speech in the same voice, or the ' +
  'new speech alone with params.include_original=false.';

export const CONVERSION_REQUEST =
  'POST /v1/voice-conversion (and /batch): multipart parts in order model, params, name, file (the speech to re-voice, ' +
  'up to 10 minutes; a batch takes several), reference_audio (1-30 s of the voice to speak in), optional reference_text ' +
  '(its words). An installed speech-to-text model finds the words and their times; each utterance is spoken again in ' +
  'the new voice in the time it had. Intonation, emotion and non-speech sounds are not kept.';

const NUM_STEPS: JsonSchema = {
  type: 'integer',
  minimum: 1,
  maximum: 32,
  default: 4,
  description: 'Flow-matching steps (ZipVoice) or sampling steps (Pocket TTS): more is slower and can sound cleaner.',
};

export interface CloningParams {
  numSteps: number;
  speed: number;
  includeOriginal: boolean;
}

/** One schema for the three products (a package's catalogue row serves them all); include_original is continuation's only. */
export function cloningParamsSchema(sampleRate: number | null): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    description: `${CLONING_REQUEST} ${CONTINUATION_REQUEST} ${CONVERSION_REQUEST}`,
    properties: {
      num_steps: NUM_STEPS,
      speed: SPEED_SCHEMA,
      // No `default` here: a default would be filled into every request's params, and voice-cloning and
      // voice-conversion refuse the param (it is continuation's); a forwarded request sends its params as filled.
      include_original: {
        type: 'boolean',
        description:
          'voice-continuation only (refused by the other products): true (when left out), the artifact is the uploaded recording followed by the continuation (both at the output rate); false, the continuation alone.',
      },
      ...OUTPUT_PARAMS_SCHEMA,
    },
    allOf: [outputFormatRules(sampleRate)],
  };
}

/** Params already validated against the schema (defaults applied); checked again here for a job from an older build. */
export function resolveCloningParams(params: Record<string, unknown>): CloningParams {
  const numSteps = params.num_steps ?? 4;
  const speed = params.speed ?? 1;
  if (typeof numSteps !== 'number' || !Number.isInteger(numSteps) || numSteps < 1 || numSteps > 32) {
    throw new JobError('invalid_params', 'num_steps must be an integer from 1 to 32');
  }
  if (typeof speed !== 'number' || !(speed >= 0.5 && speed <= 2)) throw new JobError('invalid_params', 'speed must be between 0.5 and 2');
  return { numSteps, speed, includeOriginal: params.include_original !== false };
}
