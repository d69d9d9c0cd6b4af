/**
 * Turns hosted catalogue records into local ModelDefinitions. Ids are always `remote:<hosted id>`: stable (a later
 * on-device model of the same name never renames a queued job's model) and never colliding with on-device ids.
 * Rows the hosted service itself forwards (provider `remote`) are left out, so two instances pointed at each other
 * cannot forward a job in a circle. Live dictation on a hosted model is relayed to the hosted service's dictation
 * socket (service/live/hosted-dictation-proxy.ts), so hosted speech-to-text rows keep their `live`; live text to speech
 * is not forwarded, so hosted voices are never `live` here.
 */
import type { CatalogueRecord, ModelLimits, Pricing } from '../common/api-types.js';
import { PRODUCTS, PRODUCT_CAPABILITIES, isCapability } from '../common/products.js';
import type { Capability, Product } from '../common/products.js';
import type { ModelDefinition } from '../engines/model-definition.js';
import { NO_LIMITS } from '../engines/model-definition.js';
import { REMOTE_ID_PREFIX } from './remote-options.js';

/** engineConfig of a remote definition: what the runner needs to call the hosted service. */
export interface RemoteEngineConfig {
  remoteModelId: string;
  [key: string]: unknown;
}

export interface RemoteAvailability {
  /** Null when the hosted rows may be used; else why they cannot (no key configured…). */
  blockedReason: string | null;
}

export function remoteModelId(localId: string): string | undefined {
  return localId.startsWith(REMOTE_ID_PREFIX) ? localId.slice(REMOTE_ID_PREFIX.length) : undefined;
}

export function productsOf(capability: Capability): Product[] {
  return PRODUCTS.filter((p) => PRODUCT_CAPABILITIES[p].includes(capability));
}

export function toRemoteDefinition(record: CatalogueRecord, availability: RemoteAvailability): ModelDefinition | undefined {
  if (typeof record?.id !== 'string' || !record.id || typeof record.capability !== 'string' || !isCapability(record.capability)) {
    return undefined;
  }
  if (record.provider === 'remote') return undefined;
  const hostedAvailable = record.status === 'available';
  const status = hostedAvailable && !availability.blockedReason ? 'available' : 'unavailable';
  const reason = availability.blockedReason ?? (hostedAvailable ? null : `hosted: ${record.reason ?? 'unavailable'}`);
  const engineConfig: RemoteEngineConfig = { remoteModelId: record.id };
  return {
    id: `${REMOTE_ID_PREFIX}${record.id}`,
    name: `${typeof record.name === 'string' ? record.name : record.id} (hosted)`,
    description: typeof record.description === 'string' ? record.description : '',
    capability: record.capability,
    products: productsOf(record.capability),
    provider: 'remote',
    engine: 'remote',
    engineConfig,
    languages: Array.isArray(record.languages) ? record.languages.filter((l): l is string => typeof l === 'string') : [],
    live: record.capability === 'asr' && record.live === true,
    acceptsSpeed: false,
    limits: limitsOf(record.limits),
    paramsSchema: record.params_schema && typeof record.params_schema === 'object' ? record.params_schema : { type: 'object' },
    pricing: pricingOf(record.pricing),
    status,
    reason: status === 'available' ? null : reason,
    download: null,
  };
}

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

function limitsOf(limits: Partial<ModelLimits> | undefined): ModelLimits {
  if (!limits || typeof limits !== 'object') return { ...NO_LIMITS };
  return {
    max_file_bytes: num(limits.max_file_bytes),
    max_audio_seconds: num(limits.max_audio_seconds),
    max_text_chars: num(limits.max_text_chars),
  };
}

/**
 * The hosted prices, so that local quotes and the local ledger show what the hosted service charges. A row without
 * readable prices gets the spec's request fee and no usage price rather than silently "free".
 */
function pricingOf(pricing: Partial<Pricing> | undefined): Pricing {
  const options: Pricing['options'] = {};
  if (pricing?.options && typeof pricing.options === 'object') {
    for (const [name, option] of Object.entries(pricing.options)) {
      const perMinute = num((option as { per_minute_usd?: unknown })?.per_minute_usd);
      if (perMinute !== null) options[name] = { per_minute_usd: perMinute };
    }
  }
  return {
    currency: 'USD',
    request_fee_usd: num(pricing?.request_fee_usd) ?? 0.05,
    per_minute_usd: num(pricing?.per_minute_usd) ?? 0,
    options,
  };
}
