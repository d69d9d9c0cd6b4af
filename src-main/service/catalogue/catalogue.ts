/**
 * The model catalogue: merges every ModelSource (first source wins on an id collision), prices each model from
 * the pricing file, and answers GET /v1/models. Sources are asked on every call so that availability is live
 * (a finished download, an uninstalled package).
 */
import type { CatalogueRecord, Pricing } from '../../common/api-types.js';
import { FREE_PRICING } from '../../common/pricing.js';
import type { Capability } from '../../common/products.js';
import type { ModelDefinition, ModelSource } from '../../engines/model-definition.js';
import type { PricingFile } from './pricing-file.js';

export interface ListOptions {
  capability?: Capability;
  includeUnavailable?: boolean;
}

export class Catalogue {
  constructor(
    private readonly sources: readonly ModelSource[],
    private readonly pricingFile: PricingFile,
    private readonly log: (message: string) => void = () => {},
  ) {}

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

  pricingFor(def: ModelDefinition): Pricing {
    return this.pricingFile.models[def.id] ?? def.pricing ?? (def.provider === 'local' ? this.pricingFile.default : null) ?? FREE_PRICING;
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
      limits: { ...d.limits },
      params_schema: d.paramsSchema,
      download: d.download ? { size_bytes: d.download.sizeBytes, installed: d.download.installed, licence: d.download.licence } : null,
    };
  }
}
