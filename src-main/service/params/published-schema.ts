/**
 * The one form of a model's params schema: the catalogue publishes exactly this object as `params_schema` and the
 * validator compiles exactly this object, so what a client reads is what the service enforces. Cross-field rules
 * (mp3 needs an MPEG sample rate, num_speakers needs speaker_diarization) are plain JSON Schema 2020-12 keywords
 * (`allOf` of `if`/`then`, `dependentSchemas`) inside the schema itself, never code beside it.
 */
import type { JsonSchema } from '../../common/api-types.js';

/** The JSON Schema dialect the validator (Ajv 2020) reads every params schema as, and the catalogue declares. */
export const PARAMS_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/**
 * Params are a closed object: a schema that does not say otherwise refuses unknown keys (400 unsupported_param).
 * The dialect is stated as 2020-12 whatever a source declared (a hosted draft-07 tag included), because that is
 * how it is validated; the keywords models use read the same in both.
 */
export function publishedParamsSchema(schema: JsonSchema): JsonSchema {
  const { $schema: _declared, ...rest } = schema;
  const out: JsonSchema = { $schema: PARAMS_SCHEMA_DIALECT, ...rest };
  if (out.type === undefined) out.type = 'object';
  if (out.type === 'object' && out.additionalProperties === undefined && out.unevaluatedProperties === undefined) {
    out.additionalProperties = false;
  }
  return out;
}
