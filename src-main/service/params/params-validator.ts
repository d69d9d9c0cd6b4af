/**
 * Validates a request's `params` against the model's params_schema with Ajv (JSON Schema 2020-12): defaults are
 * filled in, unknown params are refused (400 unsupported_param, named), wrong types or ranges are refused
 * (400 invalid_params with the path and Ajv's message). Each schema is compiled once, cached by model id + hash.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { createHash } from 'node:crypto';
import type { JsonSchema } from '../../common/api-types.js';
import { ApiError } from '../../common/errors.js';

// ajv-formats is CommonJS: under NodeNext its default export arrives as the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

/** Most compiled schemas kept; catalogues are small, this only bounds a misbehaving source. Default 500. */
export const MAX_CACHED_SCHEMAS = 500;

export class ParamsValidator {
  private readonly ajv: Ajv2020;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor() {
    this.ajv = new Ajv2020({ useDefaults: true, removeAdditional: false, allErrors: true, strict: false, coerceTypes: false });
    addFormats(this.ajv);
  }

  /** Returns a copy of `params` with defaults applied, or throws ApiError. */
  validate(modelId: string, schema: JsonSchema, params: Record<string, unknown>): Record<string, unknown> {
    const validate = this.compiled(modelId, schema);
    const copy = structuredClone(params);
    if (validate(copy)) return copy;
    throw toApiError(modelId, validate.errors ?? []);
  }

  private compiled(modelId: string, schema: JsonSchema): ValidateFunction {
    const json = JSON.stringify(schema);
    const key = `${modelId}:${createHash('sha256').update(json).digest('hex')}`;
    let fn = this.cache.get(key);
    if (!fn) {
      if (this.cache.size >= MAX_CACHED_SCHEMAS) this.cache.clear();
      fn = this.ajv.compile(strictObject(schema));
      this.cache.set(key, fn);
    }
    return fn;
  }
}

/** Params are a closed object: a schema that does not say otherwise refuses unknown keys. `$schema` is dropped so
 * that a draft-07 tag does not stop the 2020 compiler (the subset we use reads the same). */
function strictObject(schema: JsonSchema): JsonSchema {
  const { $schema: _ignored, ...rest } = schema;
  if (rest.type === undefined) rest.type = 'object';
  if (rest.type === 'object' && rest.additionalProperties === undefined && rest.unevaluatedProperties === undefined) {
    rest.additionalProperties = false;
  }
  return rest;
}

function toApiError(modelId: string, errors: ErrorObject[]): ApiError {
  const unknown = errors.find((e) => e.keyword === 'additionalProperties' || e.keyword === 'unevaluatedProperties');
  if (unknown) {
    const name = String((unknown.params as { additionalProperty?: string; unevaluatedProperty?: string }).additionalProperty ?? (unknown.params as { unevaluatedProperty?: string }).unevaluatedProperty);
    const where = unknown.instancePath ? ` in ${unknown.instancePath}` : '';
    return new ApiError('unsupported_param', `model ${modelId} does not accept the param "${name}"${where}`);
  }
  const first = errors[0];
  if (!first) return new ApiError('invalid_params', `params rejected by the schema of model ${modelId}`);
  const path = first.instancePath ? `params${first.instancePath.replaceAll('/', '.')}` : 'params';
  const allowed = first.keyword === 'enum' ? `: ${JSON.stringify((first.params as { allowedValues: unknown[] }).allowedValues)}` : '';
  return new ApiError('invalid_params', `${path} ${first.message ?? 'is invalid'}${allowed}`);
}

/** Parses the multipart `params` part: empty = {}, otherwise a JSON object, else 400 invalid_params. */
export function parseParamsPart(raw: string | null): Record<string, unknown> {
  if (raw === null || raw.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new ApiError('invalid_params', 'params must be a JSON object encoded as a string; it is not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError('invalid_params', 'params must be a JSON object (got ' + (Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value) + ')');
  }
  return value as Record<string, unknown>;
}

/** JSON bodies: params absent/null = {}, otherwise must be an object. */
export function paramsField(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new ApiError('invalid_params', 'params must be a JSON object');
  return value as Record<string, unknown>;
}
