/**
 * The model catalogue: merges every ModelSource (first source wins on an id collision), prices each model from
 * the pricing file (as it is on disk now: pricing-file.ts), and answers GET /v1/models.
 *
 * Availability is live (a finished download, an uninstalled package, a hosted catalogue refresh), yet a read costs
 * microseconds: each source says when its answer may have changed (`ModelSource.version()`), and the catalogue keeps
 * every source's last list, the merged list and an id → definition map until one of those versions moves. Only the
 * source that moved is asked again. A source without `version()` is asked on every read (as every source was before:
 * merging every source took 0.8–2.7 ms, and a job resolves its model about three times). Records and the definitions
 * the job engine bills are kept per definition, so they are built once for each row a source answers.
 */
import type { CatalogueRecord, ModelLimits, Pricing } from '../../common/api-types.js';
import { MAX_FILE_BYTES } from '../../common/limits.js';
import { FREE_PRICING } from '../../common/pricing.js';
import { PRODUCT_INPUT, type Capability } from '../../common/products.js';
import { DEFAULT_MAX_TEXT_CHARS } from '../../common/text-length.js';
import type { ModelDefinition, ModelSource } from '../../engines/model-definition.js';
import { publishedParamsSchema } from '../params/published-schema.js';
import type { PricingFile } from './pricing-file.js';
import { silentLog, type Log } from '../../common/log.js';

export interface ListOptions {
  capability?: Capability;
  includeUnavailable?: boolean;
}

export interface CatalogueOptions {
  /** The service's own per-file upload limit (inclusive bytes). Default MAX_FILE_BYTES (common/limits.ts). */
  maxUploadBytes?: number;
}

/** One source's last answer and the version it was given under (undefined: ask again on the next read). */
interface SourceSlot {
  readonly source: ModelSource;
  version: number | undefined;
  rows: readonly ModelDefinition[];
}

/** The merged answer of every source at one set of versions. */
interface Snapshot {
  readonly definitions: readonly ModelDefinition[];
  readonly byId: ReadonlyMap<string, ModelDefinition>;
}

export class Catalogue {
  private readonly maxUploadBytes: number;
  private readonly slots: SourceSlot[];
  private snapshot: Snapshot | null = null;
  private readonly pricingNow: () => PricingFile;
  /** The prices the kept records and billed definitions were built with. */
  private pricedWith: PricingFile | undefined;
  /** Built once per definition (a source's rows are not changed after list() returns them) and pricing file. */
  private records = new WeakMap<ModelDefinition, CatalogueRecord>();
  private billed = new WeakMap<ModelDefinition, ModelDefinition>();

  /** `pricing`: the pricing file, or a function answering it as it is now (livePricingFile). */
  constructor(
    sources: readonly ModelSource[],
    pricing: PricingFile | (() => PricingFile),
    private readonly log: Log = silentLog,
    options: CatalogueOptions = {},
  ) {
    this.maxUploadBytes = options.maxUploadBytes ?? MAX_FILE_BYTES;
    this.slots = sources.map((source) => ({ source, version: undefined, rows: [] }));
    this.pricingNow = typeof pricing === 'function' ? pricing : () => pricing;
  }

  /** The pricing file now; records and billed definitions built with other prices are dropped. */
  private pricing(): PricingFile {
    const pricing = this.pricingNow();
    if (pricing !== this.pricedWith) {
      this.pricedWith = pricing;
      this.records = new WeakMap();
      this.billed = new WeakMap();
    }
    return pricing;
  }

  /**
   * Every definition, merged; a source that throws is logged and skipped (one broken engine must not hide all) and
   * asked again on the next read. The array and its rows are shared: callers must not change them.
   */
  definitions(): readonly ModelDefinition[] {
    return this.current().definitions;
  }

  /** The definition the job engine runs (status included); undefined for an unknown id. */
  resolveModel(id: string): ModelDefinition | undefined {
    return this.current().byId.get(id);
  }

  /**
   * The definition the job engine runs and bills: its `pricing` is the price this catalogue publishes (the pricing
   * file applied), so the ledger charges what a client reads in GET /v1/models.
   */
  resolveForJobs(id: string): ModelDefinition | undefined {
    const def = this.resolveModel(id);
    if (!def) return undefined;
    const file = this.pricing();
    let billed = this.billed.get(def);
    if (!billed) {
      billed = { ...def, pricing: priceIn(file, def) };
      this.billed.set(def, billed);
    }
    return billed;
  }

  /** The merged answer, rebuilt only when some source's version moved (or a source has none, or failed last time). */
  private current(): Snapshot {
    let moved = this.snapshot === null;
    for (const slot of this.slots) {
      const version = this.versionOf(slot.source);
      if (version !== undefined && version === slot.version) continue;
      const rows = this.listOf(slot.source);
      slot.rows = rows ?? [];
      slot.version = rows ? version : undefined;
      moved = true;
    }
    if (moved || !this.snapshot) this.snapshot = this.merge();
    return this.snapshot;
  }

  private merge(): Snapshot {
    const byId = new Map<string, ModelDefinition>();
    for (const slot of this.slots) for (const row of slot.rows) if (!byId.has(row.id)) byId.set(row.id, row);
    // A row an available one stands in for goes (ModelDefinition.replaces).
    for (const row of [...byId.values()]) if (row.replaces && row.status === 'available') byId.delete(row.replaces);
    return { definitions: [...byId.values()], byId };
  }

  private versionOf(source: ModelSource): number | undefined {
    if (!source.version) return undefined;
    try {
      return source.version();
    } catch (error) {
      this.log.info(`model source ${source.name} failed to tell its version: ${(error as Error).stack ?? String(error)}`);
      return undefined;
    }
  }

  private listOf(source: ModelSource): readonly ModelDefinition[] | null {
    try {
      return source.list();
    } catch (error) {
      this.log.info(`model source ${source.name} failed: ${(error as Error).stack ?? String(error)}`);
      return null;
    }
  }

  pricingFor(def: ModelDefinition): Pricing {
    return priceIn(this.pricing(), def);
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

  /** The records of GET /v1/models (shared: callers copy before changing one). */
  list(options: ListOptions = {}): CatalogueRecord[] {
    const file = this.pricing();
    const out: CatalogueRecord[] = [];
    for (const d of this.definitions()) {
      if (!options.includeUnavailable && d.status !== 'available') continue;
      if (options.capability && d.capability !== options.capability) continue;
      out.push(this.recordOf(d, file));
    }
    return out;
  }

  get(id: string): CatalogueRecord | undefined {
    const def = this.resolveModel(id);
    return def ? this.toRecord(def) : undefined;
  }

  /** A definition's public record (kept per definition: built once for each row a source answers). */
  toRecord(d: ModelDefinition): CatalogueRecord {
    return this.recordOf(d, this.pricing());
  }

  private recordOf(d: ModelDefinition, file: PricingFile): CatalogueRecord {
    let record = this.records.get(d);
    if (!record) {
      record = this.buildRecord(d, file);
      this.records.set(d, record);
    }
    return record;
  }

  private buildRecord(d: ModelDefinition, file: PricingFile): CatalogueRecord {
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
      pricing: priceIn(file, d),
      limits: this.limitsFor(d),
      params_schema: publishedParamsSchema(d.paramsSchema),
      download: d.download ? { size_bytes: d.download.sizeBytes, installed: d.download.installed, licence: d.download.licence } : null,
      spec_family: d.specFamily ?? null,
    };
  }
}

/** The price of a model: the pricing file's entry for it, else its own (hosted), else the file's default (on-device). */
function priceIn(file: PricingFile, def: ModelDefinition): Pricing {
  return file.models[def.id] ?? def.pricing ?? (def.provider === 'local' ? file.default : null) ?? FREE_PRICING;
}
