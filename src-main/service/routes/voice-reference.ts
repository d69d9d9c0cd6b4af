/**
 * The checks a zero-shot voice request (voice-cloning, voice-continuation) gets before it becomes a job, so that a
 * recording that cannot make a voice is a 400 with nothing charged rather than a failed job: the recording must be
 * readable audio of 1-30 s and at most 16 MB (the length its container states, or its decoded length),
 * and without reference_text a ZipVoice request needs an installed recognizer to transcribe it, chosen here.
 */
import { ApiError, JobError } from '../../common/errors.js';
import type { Product } from '../../common/products.js';
import { probeDuration } from '../../engines/audio/probe.js';
import { MAX_REFERENCE_BYTES, MAX_REFERENCE_SECONDS, MIN_REFERENCE_SECONDS } from '../../engines/cloning/cloning-params.js';
import { referenceLengthMessage } from '../../engines/cloning/reference-audio.js';
import type { EngineKind, ReferenceTranscriber } from '../../engines/engine-types.js';
import type { ModelDefinition } from '../../engines/model-definition.js';
import type { AppDeps } from '../app-deps.js';
import type { UploadedFile } from '../uploads/multipart.js';

/** Products whose requests carry the recording a voice is made from. */
export function isZeroShotVoiceProduct(product: Product): product is 'voice-cloning' | 'voice-continuation' | 'voice-conversion' {
  return product === 'voice-cloning' || product === 'voice-continuation' || product === 'voice-conversion';
}

/** Engines that can transcribe a reference in a worker (the on-device recognizers). */
const RECOGNIZERS: ReadonlySet<EngineKind> = new Set<EngineKind>(['sherpa-asr', 'pocketsphinx']);

/** The recording's length in seconds; a 400 naming the part when it is not audio or not 1-30 s long. */
export async function checkReferenceAudio(file: UploadedFile, part: string): Promise<number> {
  if (file.bytes > MAX_REFERENCE_BYTES) {
    throw new ApiError('file_too_large', `the ${part} part has ${file.bytes} bytes; a voice's recording is at most ${MAX_REFERENCE_BYTES} bytes (30 s of any usual format): send a shorter or more compressed one`);
  }
  let seconds: number;
  try {
    seconds = await probeDuration(file.path);
  } catch (error) {
    if (!(error instanceof JobError)) throw error;
    throw new ApiError(
      'invalid_request',
      `the ${part} part ${file.originalName ? `"${file.originalName}" ` : ''}could not be read as audio (${error.message}); send a recording ffmpeg reads: WAV, MP3, FLAC, Ogg, M4A`,
    );
  }
  if (seconds < MIN_REFERENCE_SECONDS || seconds > MAX_REFERENCE_SECONDS) throw new ApiError('invalid_request', referenceLengthMessage(part, seconds));
  return seconds;
}

/** ZipVoice needs the reference's words; Pocket TTS takes the audio alone. */
function needsReferenceText(def: ModelDefinition): boolean {
  return def.engine === 'sherpa-cloning' ? def.engineConfig.family === 'zipvoice' : false;
}

/**
 * The recognizer that transcribes the reference when reference_text was not sent, and for a conversion the recording
 * to re-voice: among the available on-device speech-to-text models, the first (catalogue order) that lists one of the
 * voice's languages, else the one that lists most languages (a multilingual model). Undefined when none is needed; a
 * 400 when the words could be sent instead, a 422 for a conversion (nothing in the request can stand in for it).
 */
export function chooseTranscriber(
  deps: Pick<AppDeps, 'catalogue' | 'validator'>,
  def: ModelDefinition,
  referenceText: string | null,
  part: string,
  conversion = false,
): ReferenceTranscriber | undefined {
  if (!conversion && (referenceText !== null || !needsReferenceText(def))) return undefined;
  const recognizers = deps.catalogue
    .definitions()
    .filter((d) => d.status === 'available' && d.products.includes('speech-to-text') && d.engine !== 'remote' && d.engine !== 'none' && RECOGNIZERS.has(d.engine) && !d.downloading);
  if (recognizers.length === 0 && conversion) {
    throw new ApiError(
      'model_unavailable',
      `voice-conversion with model ${def.id} needs an installed speech-to-text model to find the words and their times in the recording, and none is installed: install one for the recording's language (Models, or POST /v1/local/models/{id}/download)`,
    );
  }
  if (recognizers.length === 0) {
    throw new ApiError(
      'text_required',
      `the reference_text part is required with model ${def.id}: it needs the words said in the ${part} recording, and no speech-to-text model is installed to transcribe them. Send reference_text, or install a speech-to-text model (Models, or POST /v1/local/models/{id}/download)`,
    );
  }
  const speaks = recognizers.find((d) => d.languages.some((l) => def.languages.includes(l)));
  const chosen = speaks ?? [...recognizers].sort((a, b) => b.languages.length - a.languages.length)[0]!;
  return {
    modelId: chosen.id,
    engine: chosen.engine as EngineKind,
    engineConfig: chosen.engineConfig,
    params: deps.validator.validate(chosen.id, chosen.paramsSchema, {}),
  };
}
