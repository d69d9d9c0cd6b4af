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
import { PRODUCT_INPUT } from '../../common/products.js';
import type { ModelDefinition } from '../../engines/model-definition.js';
import type { AppDeps } from '../app-deps.js';
import { parseParamsPart } from '../params/params-validator.js';
import type { UploadedFile } from '../uploads/multipart.js';
import { checkText, resolveForProduct, validateParams } from './submission.js';

export interface MultipartSubmission {
  def: ModelDefinition;
  rawParams: Record<string, unknown>;
  params: Record<string, unknown>;
  name: string | null;
  /** `text` parts in order (voice-cloning / voice-continuation). */
  texts: string[];
  /** Audio files (`file` parts) in order. */
  files: UploadedFile[];
  /** voice-cloning: the `reference` file. */
  reference: UploadedFile | null;
  dir: string;
  /** Deletes the uploaded files (on a rejection after upload, or a replayed Idempotency-Key). */
  discard(): Promise<void>;
}

/** Which parts a product's multipart body has: its file field, whether texts are required/allowed, the limit. */
function shapeOf(product: Product, batch: boolean) {
  const kind = PRODUCT_INPUT[product];
  if (product === 'voice-cloning') return { fileField: 'reference', maxFiles: 1, texts: batch ? 'many' : 'one', textRequired: true } as const;
  if (product === 'voice-continuation') return { fileField: 'file', maxFiles: 1, texts: 'one', textRequired: false } as const;
  if (kind !== 'audio') throw new Error(`product ${product} does not take multipart`);
  return { fileField: 'file', maxFiles: batch ? MAX_BATCH_ITEMS : 1, texts: 'none', textRequired: false } as const;
}

/** The parts a route takes, for the unsupported_param message. */
function partsOf(shape: ReturnType<typeof shapeOf>, batch: boolean): string {
  return ['model', 'params', ...(batch ? [] : ['name']), shape.fileField, ...(shape.texts === 'none' ? [] : ['text'])].join(', ');
}

export async function readMultipartSubmission(request: Request, deps: AppDeps, accountId: string, product: Product, batch: boolean): Promise<MultipartSubmission> {
  const shape = shapeOf(product, batch);
  let def: ModelDefinition | null = null;
  let rawParamsText: string | null = null;
  let name: string | null = null;
  const texts: string[] = [];
  const seen = new Set<string>();
  let fileCount = 0;

  const once = (field: string): void => {
    if (seen.has(field)) throw new ApiError('invalid_request', `the ${field} part was sent twice`);
    seen.add(field);
  };

  // At most a few uploads per account at once, and a bounded amount kept on disk (uploads/upload-budget.ts).
  const { files, dir, discard } = await deps.uploads.receive(accountId, request, {
    onField(field, value) {
      switch (field) {
        case 'model':
          once(field);
          def = resolveForProduct(deps, value, product);
          return;
        case 'params':
          once(field);
          rawParamsText = value;
          // Refuse bad params before any audio is read (the model part normally came first).
          if (def) validateParams(deps, def, parseParamsPart(value));
          else parseParamsPart(value);
          return;
        case 'name':
          if (batch) throw new ApiError('unsupported_param', 'unknown part "name": a batch takes no name part (files[].name are the file names)');
          once(field);
          name = value;
          return;
        case 'text':
          if (shape.texts === 'none') throw new ApiError('unsupported_param', `unknown part "text": ${product} takes no text part`);
          if (shape.texts === 'one') once(field);
          if (texts.length >= MAX_BATCH_ITEMS) throw new ApiError('too_many_items', `a batch takes at most ${MAX_BATCH_ITEMS} texts`);
          texts.push(value);
          return;
        default:
          throw new ApiError('unsupported_param', `unknown part "${field}"; this route takes ${partsOf(shape, batch)}`);
      }
    },
    beforeFile(field) {
      if (!def) throw new ApiError('model_required', `the model part must come before the ${field} part`);
      if (field !== shape.fileField) throw new ApiError('unsupported_param', `unknown file part "${field}"; this route takes ${partsOf(shape, batch)}`);
      if (fileCount >= shape.maxFiles) {
        throw shape.maxFiles > 1
          ? new ApiError('too_many_items', `a batch takes at most ${MAX_BATCH_ITEMS} files`)
          : new ApiError('invalid_request', `this route takes one ${field} part`);
      }
      fileCount++;
      // The catalogue's limits.max_file_bytes: the smaller of the model's and the service's (inclusive) limit.
      return { maxBytes: deps.catalogue.limitsFor(def).max_file_bytes ?? deps.config.maxUploadBytes };
    },
  });

  try {
    const model = def as ModelDefinition | null;
    if (!model) throw new ApiError('model_required', 'the model part is required (a catalogue id from GET /v1/models)');
    const empty = files.find((f) => f.bytes === 0);
    if (empty) throw new ApiError('file_required', `the ${empty.field} part ${empty.originalName ? `"${empty.originalName}" ` : ''}is empty`);
    if (files.length === 0) throw new ApiError('file_required', `the ${shape.fileField} part (an audio file) is required`);
    if (shape.textRequired && texts.length === 0) throw new ApiError('text_required', 'the text part is required');
    texts.forEach((t, i) => checkText(deps, model, t, texts.length > 1 ? `text #${i + 1}` : 'text'));
    const rawParams = parseParamsPart(rawParamsText);
    const params = validateParams(deps, model, rawParams);
    const reference = shape.fileField === 'reference' ? files[0]! : null;
    return { def: model, rawParams, params, name, texts, files: reference ? [] : files, reference, dir, discard };
  } catch (error) {
    await discard();
    throw error;
  }
}
