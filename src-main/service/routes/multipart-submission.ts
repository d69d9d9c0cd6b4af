/**
 * Reads the multipart body of an audio product POST (speech-to-text, voice-isolator, audio-enhancement,
 * stem-separation, voice-conversion, voice-cloning, voice-continuation; single or batch), applying the rules as
 * parts arrive: the model before any file (400 model_required), the model resolved at once (unknown/unavailable
 * refused before a byte of audio is read), a part the route does not take refused (400 unsupported_param naming it),
 * the per-file limit (413), at most 50 items (400 too_many_items at the 51st, unread).
 */
import { ApiError } from '../../common/errors.js';
import { MAX_BATCH_ITEMS } from '../../common/limits.js';
import type { Product } from '../../common/products.js';
import { BATCH_PRODUCTS, PRODUCT_INPUT } from '../../common/products.js';
import type { ModelDefinition } from '../../engines/model-definition.js';
import type { AppDeps } from '../app-deps.js';
import { parseParamsPart } from '../params/params-validator.js';
import type { UploadedFile } from '../uploads/multipart.js';
import { textLength, textTooLongMessage } from '../../common/text-length.js';
import { checkText, mayBeInstalledElsewhere, resolveForProduct, resolveForProductFresh, validateParams } from './submission.js';
import { savedVoiceReference } from './saved-voice-reference.js';

export interface MultipartSubmission {
  def: ModelDefinition;
  rawParams: Record<string, unknown>;
  params: Record<string, unknown>;
  name: string | null;
  /** `text` parts in order (voice-cloning / voice-continuation). */
  texts: string[];
  /** voice-cloning / voice-continuation: the `reference_text` part (the words said in the recording), when sent. */
  referenceText: string | null;
  /** Audio files (`file` parts; voice-continuation's `audio` part) in order. */
  files: UploadedFile[];
  /** voice-cloning / voice-conversion: the `reference_audio` file (the voice to speak in). */
  reference: UploadedFile | null;
  dir: string;
  /** Deletes the uploaded files (on a rejection after upload, or a replayed Idempotency-Key). */
  discard(): Promise<void>;
}

/** Which parts a product's multipart body has: its file field, whether texts are required/allowed, the limit. */
function shapeOf(product: Product, batch: boolean) {
  const kind = PRODUCT_INPUT[product];
  // Zero-shot voices (docs/voice-cloning.md): the recording the voice comes from (reference_audio), the words to say,
  // and optionally the words said in the recording. A continuation needs its words too: the on-device models speak a
  // text, they do not make one up. A conversion re-voices its `file` parts in the voice of reference_audio.
  if (product === 'voice-cloning') return { fileField: null, maxFiles: 0, referenceFile: true, texts: batch ? 'many' : 'one', textRequired: true, referenceText: true } as const;
  if (product === 'voice-continuation') return { fileField: 'audio', maxFiles: 1, referenceFile: false, texts: 'one', textRequired: true, referenceText: true } as const;
  // reference_audio is required by the on-device engine (voice-reference.ts), not by a hosted one's own voices.
  if (product === 'voice-conversion') return { fileField: 'file', maxFiles: batch ? MAX_BATCH_ITEMS : 1, referenceFile: 'optional', texts: 'none', textRequired: false, referenceText: true } as const;
  if (kind !== 'audio') throw new Error(`product ${product} does not take multipart`);
  return { fileField: 'file', maxFiles: batch ? MAX_BATCH_ITEMS : 1, referenceFile: false, texts: 'none', textRequired: false, referenceText: false } as const;
}

/** The parts a route takes, for the unsupported_param message. */
function partsOf(shape: ReturnType<typeof shapeOf>, batch: boolean): string {
  const texts = ['model', 'params', ...(batch ? [] : ['name']), ...(shape.texts === 'none' ? [] : ['text']), ...(shape.referenceText ? ['reference_text'] : []), ...(shape.referenceFile ? [VOICE_ID_FIELD] : [])];
  const files = [...(shape.fileField ? [shape.fileField] : []), ...(shape.referenceFile ? [REFERENCE_FIELD] : [])];
  return `the text parts ${texts.join(', ')} and the file part${files.length > 1 ? 's' : ''} ${files.join(' and ')}, model first`;
}

/** The file part of the voice a zero-shot voice product speaks in. */
const REFERENCE_FIELD = 'reference_audio';
/** Instead of that file: the id of a cloned voice the account saved (POST /v1/voices, docs/voices.md). */
const VOICE_ID_FIELD = 'voice_id';

/** Text parts of every multipart route (a `text` part only where the product takes one). */
const TEXT_PARTS = new Set(['model', 'params', 'name', 'text', 'reference_text', VOICE_ID_FIELD]);

/** A text part that arrived as a file (a curl `-F params=@x.json`), refused with what to send instead. */
function textPartAsFile(field: string): ApiError {
  const example = field === 'model' ? 'model=whisper-small' : field === 'params' ? `'params={"language":"en"}'` : `${field}=…`;
  const code = field === 'model' ? 'model_required' : field === 'params' ? 'invalid_params' : 'invalid_request';
  return new ApiError(code, `the ${field} part was sent as a file; send it as a text part instead (curl -F ${example}, not -F ${field}=@file)`);
}

/** reference_text: not empty (leave the part out to have the recording transcribed), within the text limit. */
function checkReferenceText(text: string, max: number | null): string {
  if (text.trim() === '') {
    throw new ApiError('text_required', 'the reference_text part is empty: send the words said in the recording, or leave the part out to have them transcribed');
  }
  const length = textLength(text);
  if (max !== null && length > max) throw new ApiError('text_too_long', textTooLongMessage('reference_text', length, max));
  return text.trim();
}

export async function readMultipartSubmission(request: Request, deps: AppDeps, accountId: string, product: Product, batch: boolean): Promise<MultipartSubmission> {
  const shape = shapeOf(product, batch);
  let def: ModelDefinition | null = null;
  /** A model id this node does not know yet, which another node of the cluster may have installed: looked for once the body is in. */
  let deferredModel: string | null = null;
  let rawParamsText: string | null = null;
  let name: string | null = null;
  const texts: string[] = [];
  let referenceText: string | null = null;
  let voiceId: string | null = null;
  const seen = new Set<string>();
  let fileCount = 0;

  const once = (field: string): void => {
    if (seen.has(field)) throw new ApiError('invalid_request', `the ${field} part was sent twice; send it once`);
    seen.add(field);
  };

  // At most a few uploads per account at once, and a bounded amount kept on disk (uploads/upload-budget.ts).
  const { files, dir, discard } = await deps.uploads.receive(accountId, request, {
    onField(field, value) {
      switch (field) {
        case 'model':
          once(field);
          if (mayBeInstalledElsewhere(deps, value)) deferredModel = value;
          else def = resolveForProduct(deps, value, product);
          return;
        case 'params':
          once(field);
          rawParamsText = value;
          // Refuse bad params before any audio is read (the model part normally came first).
          if (def) validateParams(deps, def, parseParamsPart(value));
          else parseParamsPart(value);
          return;
        case 'name':
          if (batch) throw new ApiError('unsupported_param', 'unknown part "name": a batch takes no name part (each item is named after its file: files[].name); leave it out');
          once(field);
          name = value;
          return;
        case 'text':
          if (shape.texts === 'none') throw new ApiError('unsupported_param', `unknown part "text": ${product} takes no text part; leave it out`);
          if (shape.texts === 'one') once(field);
          if (texts.length >= MAX_BATCH_ITEMS) throw new ApiError('too_many_items', `a batch takes at most ${MAX_BATCH_ITEMS} texts: split them into several batches`);
          texts.push(value);
          return;
        case 'reference_text':
          if (!shape.referenceText) throw new ApiError('unsupported_param', `unknown part "reference_text": ${product} takes no reference_text part; leave it out`);
          once(field);
          referenceText = value;
          return;
        case VOICE_ID_FIELD:
          if (!shape.referenceFile) throw new ApiError('unsupported_param', `unknown part "voice_id": ${product} takes no voice to speak in; leave it out`);
          once(field);
          voiceId = value;
          return;
        case shape.fileField:
        case shape.referenceFile ? REFERENCE_FIELD : null:
          throw new ApiError(
            'file_required',
            `the ${field} part arrived as text, not as a file: send the recording as a file part with a filename (curl -F ${field}=@audio.wav; in a FormData, append a Blob or File)`,
          );
        default:
          throw new ApiError('unsupported_param', `unknown part "${field}"; this route takes ${partsOf(shape, batch)}`);
      }
    },
    beforeFile(field) {
      if (TEXT_PARTS.has(field)) throw textPartAsFile(field);
      const isReference = shape.referenceFile && field === REFERENCE_FIELD;
      if (field !== shape.fileField && !isReference) {
        throw new ApiError('unsupported_param', `unknown file part "${field}": the recording goes in the part named ${shape.fileField ?? REFERENCE_FIELD}; this route takes ${partsOf(shape, batch)}`);
      }
      if (!def && deferredModel === null) {
        throw new ApiError('model_required', `the ${field} part came before the model part: send the model part first (curl -F model=ID -F ${field}=@audio.wav), so the model is known before its audio is read`);
      }
      if (isReference) once(field);
      else if (fileCount >= shape.maxFiles) {
        throw shape.maxFiles > 1
          ? new ApiError('too_many_items', `a batch takes at most ${MAX_BATCH_ITEMS} files: split them into several batches`)
          : new ApiError('invalid_request', `this route takes one ${field} part${BATCH_PRODUCTS.includes(product) ? `; send several files to POST /v1/${product}/batch` : ''}`);
      }
      if (!isReference) fileCount++;
      if (!def) return { maxBytes: deps.config.maxUploadBytes }; // the model's own limit is checked once it is found
      // The catalogue's limits.max_file_bytes: the smaller of the model's and the service's (inclusive) limit.
      const limits = deps.catalogue.limitsFor(def);
      const maxBytes = limits.max_file_bytes ?? deps.config.maxUploadBytes;
      return {
        maxBytes,
        limitNote: `the most model ${def.id} takes (limits.max_file_bytes in GET /v1/models/${def.id}); send a shorter or more compressed recording, or use a model with a larger limit`,
      };
    },
  });

  try {
    const model = (def as ModelDefinition | null) ?? (deferredModel !== null ? await foundElsewhere(deps, deferredModel, product, files) : null);
    if (!model) throw new ApiError('model_required', 'the model part is required: send a catalogue id from GET /v1/models as the first part (curl -F model=ID)');
    const empty = files.find((f) => f.bytes === 0);
    if (empty) {
      throw new ApiError('file_required', `the ${empty.field} part ${empty.originalName ? `"${empty.originalName}" ` : ''}has 0 bytes: send the recording's bytes (curl -F ${empty.field}=@path reads the file: check the path)`);
    }
    const uploaded = files.find((f) => f.field === REFERENCE_FIELD && shape.referenceFile) ?? null;
    const recordings = files.filter((f) => f !== uploaded);
    if (voiceId !== null && uploaded) throw new ApiError('invalid_request', 'send either a reference_audio part or a voice_id, not both');
    const saved = voiceId === null ? null : await savedVoiceReference(deps, accountId, voiceId, dir);
    const reference = uploaded ?? saved?.file ?? null;
    if (saved && referenceText === null) referenceText = saved.text;
    for (const field of [...(shape.fileField ? [shape.fileField] : []), ...(shape.referenceFile ? [REFERENCE_FIELD] : [])]) {
      if (field === REFERENCE_FIELD ? reference === null && shape.referenceFile === true : recordings.length === 0) {
        throw new ApiError('file_required', `the ${field} part is required: send the recording as a file part after the model (curl -F model=ID -F ${field}=@audio.wav)`);
      }
    }
    if (shape.textRequired && texts.length === 0) throw new ApiError('text_required', 'the text part is required: send the words to speak as a text part (curl -F text=…)');
    texts.forEach((t, i) => checkText(deps, model, t, texts.length > 1 ? `text #${i + 1}` : 'text'));
    const rawParams = parseParamsPart(rawParamsText);
    const params = validateParams(deps, model, rawParams);
    if ((product === 'voice-cloning' || product === 'voice-conversion') && rawParams.include_original !== undefined) {
      throw new ApiError('unsupported_param', `params.include_original is voice-continuation's (whether the recording comes before its continuation); ${product} takes no original: leave it out`);
    }
    const words = referenceText === null ? null : checkReferenceText(referenceText, deps.catalogue.limitsFor(model).max_text_chars);
    return { def: model, rawParams, params, name, texts, referenceText: words, files: recordings, reference, dir, discard };
  } catch (error) {
    await discard();
    throw error;
  }
}

/**
 * The model of a body whose id this node did not know when it arrived (mayBeInstalledElsewhere): found now that the
 * others' installs were looked for, or refused as an unknown id would have been; its files within its own limit.
 */
async function foundElsewhere(deps: AppDeps, modelId: string, product: Product, files: readonly { bytes: number; originalName: string; field: string }[]): Promise<ModelDefinition> {
  const def = await resolveForProductFresh(deps, modelId, product);
  const max = deps.catalogue.limitsFor(def).max_file_bytes ?? deps.config.maxUploadBytes;
  const large = files.find((f) => f.bytes > max);
  if (large) {
    throw new ApiError('file_too_large', `${large.originalName || `the ${large.field} part`} is larger than the limit of ${max} bytes: the most model ${def.id} takes (limits.max_file_bytes in GET /v1/models/${def.id})`);
  }
  return def;
}
