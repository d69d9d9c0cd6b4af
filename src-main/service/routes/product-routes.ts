/**
 * POST /v1/{product} and POST /v1/{product}/batch for every product of the spec. Multipart for audio products,
 * JSON for text-to-speech and voice-design. Single-item POSTs hold until the job is terminal (or the hold window
 * ends); batch POSTs answer at once with the Batch.
 */
import { refuseUnknownFields } from '../../common/unknown-fields.js';
import { Hono, type Context } from 'hono';
import { ApiError } from '../../common/errors.js';
import { MAX_BATCH_ITEMS } from '../../common/limits.js';
import { BATCH_PRODUCTS, PRODUCTS, PRODUCT_INPUT, type Product } from '../../common/products.js';
import type { EngineInput } from '../../engines/engine-types.js';
import type { NewBatch } from '../../jobs/engine/job-service-types.js';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../app-env.js';
import { describeJson, optionalString, readJsonObject } from '../http/json-body.js';
import { paramsField } from '../params/params-validator.js';
import { readMultipartSubmission, type MultipartSubmission } from './multipart-submission.js';
import { checkReferenceAudio, chooseTranscriber, isZeroShotVoiceProduct } from './voice-reference.js';
import type { ModelDefinition } from '../../engines/model-definition.js';
import { designVoice } from '../voices/voice-design-request.js';
import { designableKokoro } from '../../engines/tts/design/voice-design-row.js';
import { newSavedVoiceId, saveDesignedVoice, savedDesignedVoice, voiceName } from '../voices/saved-voices.js';
import {
  checkText,
  audioSeconds,
  holdJob,
  waitsForJob,
  idempotencyOf,
  requestedLanguage,
  resolveForProductFresh,
  validateParams,
} from './submission.js';

/**
 * voice-cloning / voice-continuation / voice-conversion on an on-device zero-shot voice: the voice's recording checked
 * (1-30 s of readable audio, else 400), the words it says given or to be transcribed, and for a conversion the
 * recognizer that finds the words and times of the speech to re-voice, chosen now (voice-reference.ts). Other
 * products and engines: only the words, when sent.
 */
async function zeroShotVoiceInput(deps: AppDeps, product: Product, sub: MultipartSubmission): Promise<Pick<EngineInput, 'referenceText' | 'transcriber'>> {
  if (!isZeroShotVoiceProduct(product)) return {};
  const part = product === 'voice-continuation' ? 'audio' : 'reference_audio';
  const words = sub.referenceText !== null ? { referenceText: sub.referenceText } : {};
  // The 1-30 s rule and the transcription are the on-device zero-shot voices' (a hosted service checks its own).
  if (sub.def.engine !== 'sherpa-cloning') return words;
  const voice = product === 'voice-continuation' ? sub.files[0]! : sub.reference;
  if (!voice) {
    throw new ApiError('file_required', `the reference_audio part is required with model ${sub.def.id}: send 1-30 s of the voice to speak in (curl -F reference_audio=@voice.wav)`);
  }
  await checkReferenceAudio(voice, part);
  const transcriber = chooseTranscriber(deps, sub.def, sub.referenceText, part, product === 'voice-conversion');
  return { ...words, ...(transcriber ? { transcriber } : {}) };
}

async function postMultipartSingle(c: Context<AppEnv>, deps: AppDeps, product: Product): Promise<Response> {
  const wait = waitsForJob(c);
  const owner = c.get('owner');
  const sub = await readMultipartSubmission(c.req.raw, deps, owner.accountId, product, false);
  try {
    // voice-cloning has only its reference; voice-conversion a recording and (on device) a reference.
    const file = sub.files[0] ?? sub.reference!;
    const voice = await zeroShotVoiceInput(deps, product, sub);
    const input: EngineInput = {
      ...(sub.files[0] ? { filePath: file.path } : {}),
      fileName: file.originalName,
      ...(sub.reference ? { referencePath: sub.reference.path } : {}),
      ...(sub.texts[0] !== undefined ? { text: sub.texts[0] } : {}),
      ...voice,
    };
    const idem = idempotencyOf(c, {
      model: sub.def.id,
      params: sub.rawParams,
      name: sub.name,
      texts: sub.texts,
      ...(sub.referenceText !== null ? { reference_text: sub.referenceText } : {}),
      files: [...sub.files, ...(sub.reference ? [sub.reference] : [])].map((f) => f.sha256),
    });
    // A recording is priced at its length; a text to speak (cloning, continuation) by the job engine from the text.
    const [estimatedSeconds] = PRODUCT_INPUT[product] === 'audio' ? await audioSeconds(deps, sub.def, sub.params, [file.path]) : [undefined];
    const { job, replayed } = await deps.jobs.createJob(
      {
        accountId: owner.accountId,
        product,
        modelId: sub.def.id,
        name: sub.name,
        language: requestedLanguage(sub.rawParams),
        params: sub.params,
        input,
        ...(estimatedSeconds !== undefined ? { estimatedSeconds } : {}),
      },
      idem,
    );
    if (replayed) await sub.discard();
    return c.json(await holdJob(c, deps, owner.accountId, product, job, wait));
  } catch (error) {
    await sub.discard();
    throw error;
  }
}

async function postMultipartBatch(c: Context<AppEnv>, deps: AppDeps, product: Product): Promise<Response> {
  const owner = c.get('owner');
  const sub = await readMultipartSubmission(c.req.raw, deps, owner.accountId, product, true);
  try {
    const voice = await zeroShotVoiceInput(deps, product, sub);
    const reference = sub.reference ? { referencePath: sub.reference.path } : {};
    const items: NewBatch['items'] =
      product === 'voice-cloning'
        ? sub.texts.map((text) => ({ name: null, input: { referencePath: sub.reference!.path, fileName: sub.reference!.originalName, text, ...voice } }))
        : sub.files.map((f) => ({ name: f.originalName || null, input: { filePath: f.path, fileName: f.originalName, ...reference, ...voice } }));
    if (items.length > MAX_BATCH_ITEMS) throw new ApiError('too_many_items', `a batch takes at most ${MAX_BATCH_ITEMS} items`);
    if (product !== 'voice-cloning') {
      const seconds = await audioSeconds(deps, sub.def, sub.params, sub.files.map((f) => f.path));
      items.forEach((item, i) => (item.estimatedSeconds = seconds[i]!));
    }
    const idem = idempotencyOf(c, {
      model: sub.def.id,
      params: sub.rawParams,
      texts: sub.texts,
      ...(sub.referenceText !== null ? { reference_text: sub.referenceText } : {}),
      files: [...(sub.reference ? [sub.reference] : []), ...sub.files].map((f) => [f.originalName, f.sha256]),
    });
    const { batch, replayed } = await deps.jobs.createBatch(
      {
        accountId: owner.accountId,
        product,
        modelId: sub.def.id,
        params: sub.params,
        language: requestedLanguage(sub.rawParams),
        items,
      },
      idem,
    );
    if (replayed) await sub.discard();
    return c.json(batch);
  } catch (error) {
    await sub.discard();
    throw error;
  }
}

function modelField(body: Record<string, unknown>): string {
  const model = body.model;
  if (model === undefined || model === null || model === '') throw new ApiError('model_required', 'the model field is required: a catalogue id from GET /v1/models, e.g. {"model": "espeak-ng", …}');
  if (typeof model !== 'string') throw new ApiError('invalid_request', `model must be a string (a catalogue id from GET /v1/models), not ${describeJson(model)}`);
  return model;
}

/** voice-design's description: optional (attribute params may say it all), a string when given. */
function descriptionField(body: Record<string, unknown>, where = 'description'): string | null {
  const d = body.description;
  if (d === undefined || d === null) return null;
  if (typeof d !== 'string') throw new ApiError('invalid_request', `${where} must be a text describing the voice, not ${describeJson(d)}`, { param: where });
  return d.trim() === '' ? null : d;
}

/** The fields of the JSON routes (text-to-speech, voice-design); anything else is 400 unsupported_param. */
function jsonFields(product: Product, batch: boolean): { body: string[]; item: string[] } {
  const design = product === 'voice-design';
  const item = design ? ['text', 'description', 'name'] : ['text', 'name'];
  return { body: batch ? ['model', 'params', 'items'] : ['model', ...item, 'params', ...(design ? ['save_as'] : [])], item };
}

/**
 * What a JSON item speaks with beyond its text: voice-design's designed voice (service/voices/voice-design-request.ts),
 * or a text-to-speech request's saved designed voice (`params.voice` = its id).
 */
async function voiceInput(
  deps: AppDeps,
  accountId: string,
  product: Product,
  def: ModelDefinition,
  params: Record<string, unknown>,
  description: string | null,
  where?: string,
): Promise<Pick<EngineInput, 'designedVoice' | 'description'>> {
  // Another voice-design model (a hosted one) reads the description itself.
  if (product === 'voice-design' && !designableKokoro(def)) {
    if (description === null) throw new ApiError('invalid_request', `${where ?? 'description'} is required: a text describing the voice`);
    return { description };
  }
  if (product === 'voice-design') {
    const { recipe, unknownWords } = designVoice(def, description, params, where);
    return { ...(description !== null ? { description } : {}), designedVoice: { recipe, unknownWords, savedVoice: null } };
  }
  const saved = await savedDesignedVoice(deps.store, accountId, def, params.voice);
  return saved ? { designedVoice: saved } : {};
}

async function postJsonSingle(c: Context<AppEnv>, deps: AppDeps, product: Product): Promise<Response> {
  const wait = waitsForJob(c);
  const owner = c.get('owner');
  const body = await readJsonObject(c);
  refuseUnknownFields(body, jsonFields(product, false).body);
  const def = await resolveForProductFresh(deps, modelField(body), product);
  const text = checkText(deps, def, body.text);
  const description = product === 'voice-design' ? descriptionField(body) : null;
  const name = optionalString(body, 'name');
  const saveAs = product === 'voice-design' && body.save_as !== undefined && body.save_as !== null ? voiceName(body.save_as, 'save_as') : null;
  const rawParams = paramsField(body.params);
  const params = validateParams(deps, def, rawParams);
  const input: EngineInput = { text, ...(await voiceInput(deps, owner.accountId, product, def, params, description)) };
  if (saveAs !== null && !input.designedVoice) throw new ApiError('unsupported_param', `save_as saves a voice designed on this device (a Kokoro's voice-design row); model ${def.id} designs none`);
  const saved = saveAs !== null ? { id: await newSavedVoiceId(deps.store, owner.accountId), name: saveAs } : null;
  if (saved) input.designedVoice!.savedVoice = saved;
  const idem = idempotencyOf(c, { model: def.id, params: rawParams, name, text, description, save_as: saveAs });
  const { job, replayed } = await deps.jobs.createJob(
    {
      accountId: owner.accountId,
      product,
      modelId: def.id,
      name,
      language: requestedLanguage(rawParams),
      params,
      input,
    },
    idem,
  );
  // Saved once its job exists (a replayed request's voice was saved the first time).
  if (saved && !replayed) await saveDesignedVoice(deps.store, owner.accountId, saved.id, saved.name, input.designedVoice!.recipe);
  return c.json(await holdJob(c, deps, owner.accountId, product, job, wait));
}

async function postJsonBatch(c: Context<AppEnv>, deps: AppDeps, product: Product): Promise<Response> {
  const owner = c.get('owner');
  const body = await readJsonObject(c);
  const fields = jsonFields(product, true);
  refuseUnknownFields(body, fields.body);
  const def = await resolveForProductFresh(deps, modelField(body), product);
  const rawItems = body.items;
  if (!Array.isArray(rawItems) || rawItems.length === 0) {
    throw new ApiError('invalid_request', `items must be a non-empty array of {${fields.item.join(', ')}}, not ${Array.isArray(rawItems) ? 'an empty array' : rawItems === undefined ? 'missing' : describeJson(rawItems)}`);
  }
  if (rawItems.length > MAX_BATCH_ITEMS) throw new ApiError('too_many_items', `a batch takes at most ${MAX_BATCH_ITEMS} items; got ${rawItems.length}: split them into several batches`);
  const rawParams = paramsField(body.params);
  const params = validateParams(deps, def, rawParams);
  const items = rawItems.map((raw: unknown, i) => {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ApiError('invalid_request', `items[${i}] must be an object {${fields.item.join(', ')}}, not ${describeJson(raw)}`);
    const item = raw as Record<string, unknown>;
    refuseUnknownFields(item, fields.item, `items[${i}].`, 'a batch item');
    const text = checkText(deps, def, item.text, `items[${i}].text`);
    const name = optionalString(item, 'name');
    const description = product === 'voice-design' ? descriptionField(item, `items[${i}].description`) : null;
    return { name, text, description };
  });
  const inputs = await Promise.all(
    items.map(async (it, i) => ({ text: it.text, ...(await voiceInput(deps, owner.accountId, product, def, params, it.description, `items[${i}].description`)) })),
  );
  const idem = idempotencyOf(c, { model: def.id, params: rawParams, items });
  const { batch } = await deps.jobs.createBatch(
    {
      accountId: owner.accountId,
      product,
      modelId: def.id,
      params,
      language: requestedLanguage(rawParams),
      items: items.map((it, i) => ({ name: it.name, input: inputs[i]! })),
    },
    idem,
  );
  return c.json(batch);
}

export function productRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  for (const product of PRODUCTS) {
    const json = PRODUCT_INPUT[product] === 'text' || PRODUCT_INPUT[product] === 'description';
    app.post(`/v1/${product}`, (c) => (json ? postJsonSingle(c, deps, product) : postMultipartSingle(c, deps, product)));
    if (BATCH_PRODUCTS.includes(product)) {
      app.post(`/v1/${product}/batch`, (c) => (json ? postJsonBatch(c, deps, product) : postMultipartBatch(c, deps, product)));
    }
  }
  return app;
}
