/**
 * The model catalogue: merges every ModelSource (first source wins on an id collision), prices each model from
 * the pricing file, and answers GET /v1/models. Sources are asked on every call so that availability is live
 * (a finished download, an uninstalled package).
 */
import type { CatalogueRecord, ModelLimits, Pricing } from '../../common/api-types.js';
import { MAX_FILE_BYTES } from '../../common/limits.js';
import { FREE_PRICING } from '../../common/pricing.js';
import { PRODUCT_INPUT, type Capability } from '../../common/products.js';
import { DEFAULT_MAX_TEXT_CHARS } from '../../common/text-length.js';
import type { ModelDefinition, ModelSource } from '../../engines/model-definition.js';
import { publishedParamsSchema } from '../params/published-schema.js';
import type { PricingFile } from './pricing-file.js';

export interface ListOptions {
  capability?: Capability;
  includeUnavailable?: boolean;
}

export interface CatalogueOptions {
  /** The service's own per-file upload limit (inclusive bytes). Default MAX_FILE_BYTES (common/limits.ts). */
  maxUploadBytes?: number;
}

export class Catalogue {
  private readonly maxUploadBytes: number;

  constructor(
    private readonly sources: readonly ModelSource[],
    private readonly pricingFile: PricingFile,
    private readonly log: (message: string) => void = () => {},
    options: CatalogueOptions = {},
  ) {
    this.maxUploadBytes = options.maxUploadBytes ?? MAX_FILE_BYTES;
  }

  /** Every definition, merged; a source that throws is logged and skipped (one broken engine must not hide all). */
  definitions(): ModelDefinition[] {
    const seen = new Map<string, ModelDefinition>();
    for (const source of this.sources) {
      let rows: ModelDefinition[];
      try {
        rows = source.list();
      } catch (error) {
        this.log(`model source ${source.name} failed: ${(error as Error).stack ?? String(error)}`);
        continue;
      }
      for (const row of rows) if (!seen.has(row.id)) seen.set(row.id, row);
    }
    return [...seen.values()];
  }

  /** The definition the job engine runs (status included); undefined for an unknown id. */
  resolveModel(id: string): ModelDefinition | undefined {
    return this.definitions().find((d) => d.id === id);
  }

  /**
   * The definition the job engine runs and bills: its `pricing` is the price this catalogue publishes (the pricing
   * file applied), so the ledger charges what a client reads in GET /v1/models.
   */
  resolveForJobs(id: string): ModelDefinition | undefined {
    const def = this.resolveModel(id);
    return def ? { ...def, pricing: this.pricingFor(def) } : undefined;
  }

  pricingFor(def: ModelDefinition): Pricing {
    return this.pricingFile.models[def.id] ?? def.pricing ?? (def.provider === 'local' ? this.pricingFile.default : null) ?? FREE_PRICING;
  }

  /**
   * The limits a request meets, which the record publishes and the routes enforce: a model that takes files gets
   * the smaller of its own max_file_bytes and the service's upload limit (both inclusive maxima); a model that takes
   * text gets its max_text_chars or DEFAULT_MAX_TEXT_CHARS (counted in Unicode code points, common/text-length.ts).
   */
  limitsFor(d: ModelDefinition): ModelLimits {
    const kinds = d.products.map((p) => PRODUCT_INPUT[p]);
    const takesFiles = kinds.some((k) => k === 'audio' || k === 'audio+text');
    const takesText = kinds.some((k) => k !== 'audio');
    const own = d.limits.max_file_bytes;
    return {
      max_file_bytes: takesFiles ? Math.min(own ?? Infinity, this.maxUploadBytes) : own,
      max_audio_seconds: d.limits.max_audio_seconds,
      max_text_chars: takesText ? (d.limits.max_text_chars ?? DEFAULT_MAX_TEXT_CHARS) : d.limits.max_text_chars,
    };
  }

  list(options: ListOptions = {}): CatalogueRecord[] {
    return this.definitions()
      .filter((d) => (options.includeUnavailable ? true : d.status === 'available'))
      .filter((d) => (options.capability ? d.capability === options.capability : true))
      .map((d) => this.toRecord(d));
  }

  get(id: string): CatalogueRecord | undefined {
    const def = this.resolveModel(id);
    return def ? this.toRecord(def) : undefined;
  }

  toRecord(d: ModelDefinition): CatalogueRecord {
    return {
      id: d.id,
      object: 'model',
      name: d.name,
      description: d.description,
      capability: d.capability,
      products: [...d.products],
      status: d.status,
      reason: d.status === 'available' ? null : d.reason,
      provider: d.provider,
      engine: d.engine,
      languages: [...d.languages],
      live: d.live,
      accepts_speed: d.acceptsSpeed,
      pricing: this.pricingFor(d),
      limits: this.limitsFor(d),
      params_schema: publishedParamsSchema(d.paramsSchema),
      download: d.download ? { size_bytes: d.download.sizeBytes, installed: d.download.installed, licence: d.download.licence } : null,
    };
  }
}
