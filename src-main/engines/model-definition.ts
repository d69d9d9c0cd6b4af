/**
 * How on-device (and remote) models describe themselves to the catalogue and the job engine. Each model source
 * (built-in engines, the model manager, the hosted catalogue) lists its definitions with their current status;
 * the catalogue merges the sources, applies the pricing file and answers GET /v1/models.
 */
import type { JsonSchema, ModelLimits, Pricing } from '../common/api-types.js';
import type { Capability, Product } from '../common/products.js';
import type { SpecFamily } from '../common/spec-families.js';
import type { EngineKind } from './engine-types.js';

export interface ModelDefinition {
  id: string;
  name: string;
  description: string;
  capability: Capability;
  /** Product routes that accept the model. */
  products: Product[];
  provider: 'local' | 'remote';
  /**
   * On-device engine kind, 'remote' for forwarded models, or 'none' for announced rows that no engine serves here
   * (products without an on-device engine: always unavailable, with a reason).
   */
  engine: EngineKind | 'remote' | 'none';
  /** Settings passed to the engine in EngineTask.engineConfig (model file paths etc.). */
  engineConfig: Record<string, unknown>;
  languages: string[];
  live: boolean;
  acceptsSpeed: boolean;
  limits: ModelLimits;
  /** JSON Schema (draft 2020-12 subset Ajv understands) with `default`s: validates params and draws UI forms. */
  paramsSchema: JsonSchema;
  /** Omitted for on-device models (free unless the pricing file sets a price). */
  pricing?: Pricing;
  status: 'available' | 'unavailable';
  /** Why it is unavailable (not downloaded, PocketSphinx not installed, no hosted service configured, …). */
  reason: string | null;
  /** Set while the model manager is downloading it: queued jobs wait with waiting_for_model. */
  downloading?: boolean;
  /** Downloadable models. */
  download?: { sizeBytes: number; installed: boolean; licence: string } | null;
  /**
   * The id of a row this one stands in for while it is available (voice design on an installed Kokoro replaces the
   * row explaining that no on-device engine designs voices): the catalogue leaves that row out.
   */
  replaces?: string;
  /** The spec's family label this model serves (common/spec-families.ts); omitted or null: none. */
  specFamily?: SpecFamily | null;
}

export interface ModelSource {
  readonly name: string;
  /**
   * Current definitions with availability. The catalogue keeps the answer until `version()` moves, so the rows are
   * shared between callers: never mutated after they are returned.
   */
  list(): ModelDefinition[];
  /**
   * A number that moves whenever list() may answer differently (a download finished, a package deleted, the hosted
   * catalogue refreshed, a setting changed). Called on every catalogue read, so it must cost about a microsecond: the
   * source counts its own changes rather than recomputing its list. A source without it is asked for its list on every
   * read (nothing of it is kept).
   */
  version?(): number;
}

export const NO_LIMITS: ModelLimits = { max_file_bytes: null, max_audio_seconds: null, max_text_chars: null };

/**
 * The fields of a row no on-device engine serves (a product without one, a spec family without an open model): it
 * is listed, unavailable, to say so and why. (Its engineConfig and languages are its own objects, not shared.)
 */
export const NO_ENGINE = {
  provider: 'local',
  engine: 'none',
  live: false,
  acceptsSpeed: false,
  status: 'unavailable',
  download: null,
} as const satisfies Partial<ModelDefinition>;
