/**
 * What every POST on a product route shares: resolving the model for the product, validating params, the seconds a
 * recording is priced at, the Idempotency-Key, and holding a single-item POST until the job is terminal or the hold
 * window ends. Prices are not computed here: the job engine records the catalogue's price on every job it accepts.
 */
import type { Context } from 'hono';
import { createHash } from 'node:crypto';
import type { Job } from '../../common/api-types.js';
import { ApiError } from '../../common/errors.js';
import { isTerminal } from '../../common/job-states.js';
import { enabledOptions } from '../../common/pricing.js';
import { textLength, textTooLongMessage } from '../../common/text-length.js';
import type { JobProduct, Product } from '../../common/products.js';
import { speakerCount } from '../../engines/asr/asr-params.js';
import { statedDuration } from '../../engines/audio/probe.js';
import { hasSpeech } from '../../engines/audio/sentences.js';
import type { ModelDefinition } from '../../engines/model-definition.js';
import { SENTENCE_TTS_ENGINES } from '../../engines/tts/tts-run.js';
import type { Idempotency } from '../../jobs/engine/job-service-types.js';
import type { AppDeps } from '../app-deps.js';
import { booleanQuery, queryOf } from '../http/query-params.js';
import { mustBeString } from '../../common/error-messages.js';

/** Longest Idempotency-Key accepted. */
export const MAX_IDEMPOTENCY_KEY_CHARS = 255;

/**
 * Unknown model → 400 invalid_request (the id is a request field, not a resource of the URL); a model of another
 * product → 400 invalid_params; unavailable and not downloading → 422 model_unavailable with the reason. A model
 * being downloaded is accepted: its job waits with waiting_for_model.
 */
export function resolveForProduct(deps: Pick<AppDeps, 'catalogue'>, modelId: string, product: Product): ModelDefinition {
  if (!modelId.trim()) throw new ApiError('model_required', 'the model is required (a catalogue id from GET /v1/models)');
  const def = deps.catalogue.resolveModel(modelId);
  if (!def) throw new ApiError('invalid_request', `unknown model "${modelId}"; GET /v1/models lists the catalogue`);
  if (!def.products.includes(product)) {
    throw new ApiError('invalid_params', `model ${modelId} does not serve product ${product} (it serves ${def.products.join(', ') || 'nothing'})`);
  }
  if (def.status !== 'available' && !def.downloading) {
    throw new ApiError('model_unavailable', `model ${modelId} is unavailable: ${def.reason ?? 'no reason given'}`);
  }
  return def;
}

/**
 * resolveForProduct, looking first for models installed elsewhere when the id is unknown here: another node of a
 * cluster, or `voxdesk models pull` beside the service, may have installed it (or configured hosted forwarding) a
 * moment ago, and this node's view
 * learns of it only when it looks (models/change-tracker.ts). Only a miss costs the look.
 */
export async function resolveForProductFresh(deps: Pick<AppDeps, 'catalogue' | 'models' | 'remote'>, modelId: string, product: Product): Promise<ModelDefinition> {
  if (modelId.trim() && !deps.catalogue.resolveModel(modelId)) {
    await deps.models.refresh();
    // A hosted model: forwarding may have been configured through another API node a moment ago.
    await deps.remote.othersCommitted();
  }
  return resolveForProduct(deps, modelId, product);
}

/**
 * Whether a model id unknown when a multipart body names it may still be one another node installed: on a cluster's
 * shared database the body is then read whole and the id looked for again (resolveForProductFresh) instead of being
 * refused before the recording arrives, as it is on one machine.
 */
export function mayBeInstalledElsewhere(deps: Pick<AppDeps, 'catalogue' | 'store'>, modelId: string): boolean {
  return deps.store.dialect === 'postgres' && modelId.trim() !== '' && !deps.catalogue.resolveModel(modelId);
}

export function validateParams(deps: Pick<AppDeps, 'validator'>, def: ModelDefinition, raw: Record<string, unknown>): Record<string, unknown> {
  const params = deps.validator.validate(def.id, def.paramsSchema, raw);
  if (def.products.includes('speech-to-text')) speakerCountOf(params);
  return params;
}

/**
 * The rules between the speaker-count params that a JSON Schema cannot state (num_speakers with min_speakers or
 * max_speakers, min above max): 400 invalid_params at the request, as every other params error.
 */
function speakerCountOf(params: Record<string, unknown>): void {
  if (params.num_speakers === undefined && params.min_speakers === undefined && params.max_speakers === undefined) return;
  try {
    speakerCount(params);
  } catch (error) {
    throw new ApiError('invalid_params', (error as Error).message, { param: 'params' });
  }
}

/** The language the caller sent (spec: stored on speech-to-text jobs "when one was sent"), never a default. */
export function requestedLanguage(raw: Record<string, unknown>): string | null {
  const value = raw.language ?? raw.language_code;
  return typeof value === 'string' && value !== '' ? value : null;
}

/** Files probed at once when a batch is priced. */
const PROBE_CONCURRENCY = 4;

/**
 * Seconds each recording is priced at when its job is accepted: the length its container states (engines/audio/
 * probe.ts statedDuration), or null when that cannot be read without decoding it (the usage is then charged when the
 * job has run). Only asked when the model's price depends on the length (per-minute or priced options), so free
 * on-device models cost nothing extra here. The price itself is recorded by the job engine (jobs/billing.ts).
 */
export async function audioSeconds(deps: Pick<AppDeps, 'catalogue'>, def: ModelDefinition, params: Record<string, unknown>, paths: readonly string[]): Promise<(number | null)[]> {
  const pricing = deps.catalogue.pricingFor(def);
  const perMinute = pricing.per_minute_usd + enabledOptions(pricing, params).reduce((sum, name) => sum + pricing.options[name]!.per_minute_usd, 0);
  if (perMinute <= 0) return paths.map(() => null);
  const seconds: (number | null)[] = new Array(paths.length).fill(null);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < paths.length) {
      const i = next++;
      seconds[i] = await statedDuration(paths[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PROBE_CONCURRENCY, paths.length) }, worker));
  return seconds;
}

/**
 * Refuses a missing, empty or too long text. The limit is the catalogue's `limits.max_text_chars` (the effective
 * one, default 5000), counted in Unicode code points like everywhere else (common/text-length.ts).
 */
export function checkText(deps: AppDeps, def: ModelDefinition, text: unknown, field = 'text'): string {
  if (text === undefined || text === null || (typeof text === 'string' && text.trim() === '')) {
    throw new ApiError('text_required', `${field} is required and must not be empty`);
  }
  if (typeof text !== 'string') throw new ApiError('invalid_request', mustBeString(field));
  const max = deps.catalogue.limitsFor(def).max_text_chars;
  const length = textLength(text);
  if (max !== null && length > max) throw new ApiError('text_too_long', textTooLongMessage(field, length, max, def.id));
  if (SENTENCE_TTS_ENGINES.has(def.engine) && !hasSpeech(text)) {
    throw new ApiError('text_required', `${field} has no words to speak (only punctuation, symbols or emoji)`);
  }
  return text;
}

/** Idempotency-Key header → {key, hash of the request}; undefined without the header. */
export function idempotencyOf(c: Context, request: unknown): Idempotency | undefined {
  const key = c.req.header('idempotency-key');
  if (key === undefined) return undefined;
  if (key.trim() === '' || key.length > MAX_IDEMPOTENCY_KEY_CHARS) {
    throw new ApiError('invalid_request', `Idempotency-Key must be 1..${MAX_IDEMPOTENCY_KEY_CHARS} characters`);
  }
  const path = new URL(c.req.url).pathname;
  const requestHash = createHash('sha256').update(JSON.stringify({ method: c.req.method, path, request })).digest('hex');
  return { key, requestHash };
}

/**
 * Whether a single-item POST is held for its job: yes unless `?wait=false`, asked by a caller that follows the job
 * itself (and shows its progress meanwhile). Read before the job is made, so a bad value creates nothing.
 */
export function waitsForJob(c: Context): boolean {
  return booleanQuery(queryOf(c.req.url), 'wait', true);
}

/** Holds a single-item POST (one that waits) until the job is terminal, the hold window ends or the client goes away. */
export async function holdJob(c: Context, deps: AppDeps, accountId: string, product: JobProduct, job: Job, wait: boolean): Promise<Job> {
  if (!wait || isTerminal(job.status) || deps.config.holdSeconds <= 0) return job;
  await deps.jobs.waitForTerminal(job.id, deps.config.holdSeconds * 1000, AbortSignal.any([c.req.raw.signal, deps.closing]));
  return (await deps.jobs.getJob(accountId, product, job.id)) ?? job;
}
