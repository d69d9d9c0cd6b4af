/**
 * Validates a request's `params` against the model's params_schema with Ajv (JSON Schema 2020-12) before any job
 * exists: defaults are filled in, unknown params are refused (400 unsupported_param, named), wrong types, ranges
 * and cross-field rules are refused (400 invalid_params with the path, e.g. `params.output_sample_rate must be
 * equal to one of the allowed values: […] when params.output_format is "mp3"`). The schema compiled is the one the
 * catalogue publishes (published-schema.ts). Each schema is compiled once, cached by model id + hash.
 *
 * Model definitions hand out the same schema object request after request (a definition that changes is a new
 * object), so a request finds its compiled schema by the object itself (a WeakMap) and never serializes or hashes
 * it; only a schema object not seen before is hashed, so a new object with the same content reuses the compile.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { createHash } from 'node:crypto';
import type { JsonSchema } from '../../common/api-types.js';
import { ApiError } from '../../common/errors.js';
import { describeJson } from '../http/json-body.js';
import { MAX_JSON_DEPTH, textNestsPast, valueNestsPast } from '../http/json-depth.js';
import { publishedParamsSchema } from './published-schema.js';

// ajv-formats is CommonJS: under NodeNext its default export arrives as the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

interface Compiled {
  /** The schema as published (what error messages are read from). */
  schema: JsonSchema;
  validate: ValidateFunction;
}

/** Most compiled schemas kept; catalogues are small, this only bounds a misbehaving source. Default 500. */
export const MAX_CACHED_SCHEMAS = 500;

export class ParamsValidator {
  private readonly ajv: Ajv2020;
  private readonly cache = new Map<string, Compiled>();
  /** The compile of each schema object seen, found without hashing; forgotten with the object. */
  private readonly byObject = new WeakMap<JsonSchema, Compiled>();

  constructor() {
    // verbose: each error carries the value that failed, so a refusal can say what was sent.
    this.ajv = new Ajv2020({ useDefaults: true, removeAdditional: false, allErrors: true, strict: false, coerceTypes: false, verbose: true });
    addFormats(this.ajv);
  }

  /**
   * Compiles these models' schemas ahead of their first request, one per turn of the event loop so a request that
   * arrives meanwhile waits for one compile at most. The first compile also compiles JSON Schema's meta-schema: about
   * 100 ms that the first job after start paid (issue 14, goal 5). Returns when done (or `signal` aborted).
   */
  async prepare(models: { id: string; paramsSchema: JsonSchema }[], signal?: AbortSignal): Promise<void> {
    for (const model of models) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (signal?.aborted) return;
      try {
        this.compiled(model.id, model.paramsSchema);
      } catch {
        // A schema that does not compile is reported by its first request, as before.
      }
    }
  }

  /** Returns a copy of `params` with defaults applied, or throws ApiError. */
  validate(modelId: string, schema: JsonSchema, params: Record<string, unknown>): Record<string, unknown> {
    // Before anything recurses over the value (structuredClone, Ajv): a deep value overflowed the stack (a 500).
    const deep = valueNestsPast(params, MAX_JSON_DEPTH);
    if (deep !== null) throw tooDeep(deep === '(top)' ? 'params' : `params.${deep}`);
    const { schema: published, validate } = this.compiled(modelId, schema);
    const copy = structuredClone(params);
    if (validate(copy)) return copy;
    throw toApiError(modelId, published, validate.errors ?? []);
  }

  private compiled(modelId: string, schema: JsonSchema): Compiled {
    const known = this.byObject.get(schema);
    if (known) return known;
    const json = JSON.stringify(schema);
    const key = `${modelId}:${createHash('sha256').update(json).digest('hex')}`;
    let entry = this.cache.get(key);
    if (!entry) {
      if (this.cache.size >= MAX_CACHED_SCHEMAS) this.cache.clear();
      const published = publishedParamsSchema(schema);
      entry = { schema: published, validate: this.ajv.compile(published) };
      this.cache.set(key, entry);
    }
    this.byObject.set(schema, entry);
    return entry;
  }
}

/** Keywords whose own error only says "a sub-schema failed": the sub-schema's error is the one worth reporting. */
const WRAPPERS = new Set(['if', 'anyOf', 'oneOf', 'allOf', 'not']);

function pathOf(error: ErrorObject): string {
  return error.instancePath ? `params${error.instancePath.replaceAll('/', '.')}` : 'params';
}

/** The sub-schema an error's schemaPath (`#/allOf/0/if`) points at, or undefined. */
function schemaAt(root: JsonSchema, schemaPath: string): JsonSchema | undefined {
  let node: unknown = root;
  for (const raw of schemaPath.replace(/^#\/?/, '').split('/').filter(Boolean)) {
    const part = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node !== null && typeof node === 'object' ? (node as JsonSchema) : undefined;
}

/** "output_format is "mp3"" for an `if` of consts, so a cross-field refusal says which other field caused it. */
function describeCondition(condition: JsonSchema | undefined): string | null {
  const properties = condition?.properties as Record<string, { const?: unknown; enum?: unknown[] }> | undefined;
  if (!properties) return null;
  const parts = Object.entries(properties).flatMap(([name, rule]) =>
    'const' in rule ? [`params.${name} is ${JSON.stringify(rule.const)}`] : Array.isArray(rule.enum) ? [`params.${name} is one of ${JSON.stringify(rule.enum)}`] : [],
  );
  return parts.length ? parts.join(' and ') : null;
}

/** A short reading of a simple schema ("an integer from 8000 to 48000", ""source""), for anyOf alternatives. */
function describeSchema(schema: JsonSchema): string {
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return `one of ${JSON.stringify(schema.enum)}`;
  const type = typeof schema.type === 'string' ? schema.type : 'value';
  const article = /^[aeiou]/.test(type) ? 'an' : 'a';
  if (typeof schema.minimum === 'number' && typeof schema.maximum === 'number') return `${article} ${type} from ${schema.minimum} to ${schema.maximum}`;
  if (typeof schema.pattern === 'string') return `${article} ${type} matching ${schema.pattern.length > 60 ? 'its pattern' : schema.pattern}`;
  return `${article} ${type}`;
}

function toApiError(modelId: string, schema: JsonSchema, errors: ErrorObject[]): ApiError {
  const unknown = errors.find((e) => e.keyword === 'additionalProperties' || e.keyword === 'unevaluatedProperties');
  if (unknown) {
    const name = String((unknown.params as { additionalProperty?: string; unevaluatedProperty?: string }).additionalProperty ?? (unknown.params as { unevaluatedProperty?: string }).unevaluatedProperty);
    const where = unknown.instancePath ? ` in params${unknown.instancePath.replaceAll('/', '.')}` : '';
    const accepted = unknown.instancePath ? [] : Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
    const fix = accepted.length > 0 ? `; it accepts ${accepted.join(', ')} (params_schema in GET /v1/models/${modelId}): leave "${name}" out` : `: leave "${name}" out`;
    return new ApiError('unsupported_param', `model ${modelId} does not accept the param "${name}"${where}${fix}`);
  }
  const alternatives = errors.find((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const inAlternatives = (e: ErrorObject): boolean => alternatives !== undefined && e.schemaPath.startsWith(`${alternatives.schemaPath}/`);
  const specific = errors.find((e) => !WRAPPERS.has(e.keyword) && !inAlternatives(e));
  if (specific) return new ApiError('invalid_params', describeError(schema, specific));
  if (alternatives) {
    // A value that matches none of a field's alternatives: name them all, not the first one's complaint.
    const options = schemaAt(schema, alternatives.schemaPath);
    const list = Array.isArray(options) ? (options as JsonSchema[]).map(describeSchema).join(' or ') : '';
    return new ApiError('invalid_params', `${pathOf(alternatives)} must be ${list || 'one of its allowed forms'}`);
  }
  return new ApiError('invalid_params', `params rejected by the schema of model ${modelId}`);
}

/** One failed keyword in words: the field's path, what it must be, and the other field that made the rule apply. */
function describeError(schema: JsonSchema, error: ErrorObject): string {
  let field = pathOf(error);
  let what: string;
  switch (error.keyword) {
    case 'required': {
      const missing = (error.params as { missingProperty: string }).missingProperty;
      field = `${field}.${missing}`;
      const rule = schemaAt(schema, error.schemaPath.replace(/\/required$/, `/properties/${missing}`));
      what = `is required${typeof rule?.description === 'string' ? ` (${rule.description})` : ''}`;
      break;
    }
    case 'const':
      what = `must be ${JSON.stringify((error.params as { allowedValue: unknown }).allowedValue)}${sent(error)}${reasonOf(schema, error)}`;
      break;
    case 'enum':
      what = `${error.message ?? 'is invalid'}: ${JSON.stringify((error.params as { allowedValues: unknown[] }).allowedValues)}${sent(error)}${reasonOf(schema, error)}`;
      break;
    case 'pattern':
      what = `${describePattern(schema, error) ?? error.message ?? 'is invalid'}${sent(error)}`;
      break;
    default:
      what = `${error.message ?? 'is invalid'}${sent(error)}${reasonOf(schema, error)}`;
  }
  const because = conditionOf(schema, error.schemaPath);
  return `${field} ${what}${because ? ` when ${because}` : ''}`;
}

/** " (got the string "x")": the value that failed, when Ajv kept it (verbose) and it is a value of the params. */
function sent(error: ErrorObject): string {
  return error.instancePath && 'data' in error ? ` (got ${describeJson(error.data)})` : '';
}

/**
 * ": <description>" for a refused value whose param's description says why only some values can be honoured (a
 * param the engine takes only in its neutral setting says so in its description, starting "Only …").
 */
function reasonOf(schema: JsonSchema, error: ErrorObject): string {
  const field = schemaAt(schema, error.schemaPath.replace(/\/[^/]+$/, ''));
  const description = typeof field?.description === 'string' ? field.description : '';
  return /^Only\b/.test(description) ? `: ${description}` : '';
}

/**
 * The condition under which a rule applies, read from where it sits in the schema: inside an `if`'s `then`
 * ("params.output_format is "mp3"") or inside `dependentSchemas.NAME` ("params.NAME is given"); null otherwise.
 */
function conditionOf(schema: JsonSchema, schemaPath: string): string | null {
  const then = /^(.*)\/then\//.exec(schemaPath);
  if (then) return describeCondition(schemaAt(schema, `${then[1]}/if`));
  const dependent = /\/dependentSchemas\/([^/]+)\//.exec(schemaPath);
  if (dependent) return `params.${dependent[1]!.replaceAll('~1', '/').replaceAll('~0', '~')} is given`;
  return null;
}

/** A pattern failure reads badly as a regex; the field's description says what the values are. */
function describePattern(schema: JsonSchema, error: ErrorObject): string | null {
  const field = schemaAt(schema, error.schemaPath.replace(/\/pattern$/, ''));
  const description = typeof field?.description === 'string' ? field.description : null;
  return description ? `is not accepted: ${description}` : null;
}

/**
 * Parses the multipart `params` part (spec: "Omitted or empty string means defaults. A value that is not a JSON
 * object is invalid"): absent or exactly '' = {}; anything else must parse to a JSON object, else 400
 * invalid_params — whitespace alone included, since it is neither empty nor an object.
 */
export function parseParamsPart(raw: string | null): Record<string, unknown> {
  if (raw === null || raw === '') return {};
  if (textNestsPast(raw, MAX_JSON_DEPTH) !== null) throw tooDeep('params');
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (cause) {
    throw new ApiError('invalid_params', `the params part is not valid JSON (${(cause as Error).message}): send a JSON object as text, e.g. -F 'params={"language":"en"}', or leave the part out for the defaults`, { cause });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError('invalid_params', `the params part must be a JSON object, not ${describeJson(value)}: send e.g. -F 'params={"language":"en"}', or leave the part out for the defaults`);
  }
  return value as Record<string, unknown>;
}

/** params (or a value inside it, at `where`) nested past MAX_JSON_DEPTH levels. */
function tooDeep(where: string): ApiError {
  return new ApiError(
    'invalid_params',
    `${where} nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep; no model's params nest more than a few: send a flat object of the params in the model's params_schema (GET /v1/models/{id})`,
  );
}

/** JSON bodies: params absent/null = {}, otherwise must be an object. */
export function paramsField(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError('invalid_params', `params must be a JSON object of the model's params, not ${describeJson(value)}: e.g. "params": {"language": "en"}, or leave it out for the defaults`);
  }
  return value as Record<string, unknown>;
}
