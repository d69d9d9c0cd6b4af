/**
 * The operator's pricing file: `{"models": {"<id>": Pricing-ish}, "default": Pricing-ish}`. `models[id]` overrides
 * any model's price; `default` applies to on-device models that carry no price of their own (otherwise free).
 * Read at start (a broken file stops the start) and again whenever it changes on disk (livePricingFile).
 */
import { readFileSync, statSync, type BigIntStats } from 'node:fs';
import type { Pricing } from '../../common/api-types.js';
import type { Log } from '../../common/log.js';

export interface PricingFile {
  models: Record<string, Pricing>;
  default: Pricing | null;
}

export const EMPTY_PRICING_FILE: PricingFile = { models: {}, default: null };

function nonNegative(value: unknown, where: string): number {
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new Error(`${where} must be a number ≥ 0`);
  return value;
}

export function parsePricing(value: unknown, where: string): Pricing {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${where} must be an object`);
  const v = value as Record<string, unknown>;
  const options: Pricing['options'] = {};
  if (v.options !== undefined) {
    if (v.options === null || typeof v.options !== 'object' || Array.isArray(v.options)) throw new Error(`${where}.options must be an object`);
    for (const [name, option] of Object.entries(v.options as Record<string, unknown>)) {
      const o = (option ?? {}) as Record<string, unknown>;
      options[name] = { per_minute_usd: nonNegative(o.per_minute_usd, `${where}.options.${name}.per_minute_usd`) };
    }
  }
  return {
    currency: 'USD',
    request_fee_usd: nonNegative(v.request_fee_usd, `${where}.request_fee_usd`),
    per_minute_usd: nonNegative(v.per_minute_usd, `${where}.per_minute_usd`),
    options,
  };
}

export function parsePricingFile(json: unknown, source = 'pricing file'): PricingFile {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new Error(`${source}: the top level must be an object`);
  const top = json as Record<string, unknown>;
  const models: Record<string, Pricing> = {};
  if (top.models !== undefined) {
    if (top.models === null || typeof top.models !== 'object' || Array.isArray(top.models)) throw new Error(`${source}: "models" must be an object`);
    for (const [id, p] of Object.entries(top.models as Record<string, unknown>)) models[id] = parsePricing(p, `${source}: models.${id}`);
  }
  return { models, default: top.default === undefined ? null : parsePricing(top.default, `${source}: default`) };
}

export function loadPricingFile(path: string | null): PricingFile {
  if (!path) return EMPTY_PRICING_FILE;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (cause) {
    throw new Error(`cannot read pricing file ${path}: ${(cause as Error).message}`, { cause });
  }
  return parsePricingFile(json, path);
}

/**
 * The pricing file as it is on disk now: each call compares the file's size, inode and change times (one stat, about
 * 3 µs) and reads it again when they moved, so an edit applies to the very next price asked for. An edit that cannot
 * be read or parsed keeps the last good prices (a half-written or mistyped file must not make every model free) and
 * is logged once; to remove every price, write `{}`.
 */
export function livePricingFile(path: string, initial: PricingFile, log: Log): () => PricingFile {
  const stamp = (stats: BigIntStats | undefined): string => (stats ? `${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}` : 'missing');
  const statNow = (): BigIntStats | undefined => statSync(path, { bigint: true, throwIfNoEntry: false });
  let seen = stamp(statNow());
  let current = initial;
  return () => {
    const now = stamp(statNow());
    if (now === seen) return current;
    seen = now;
    try {
      current = loadPricingFile(path);
      log.info(`pricing file ${path} read again: the new prices apply from now on`);
    } catch (error) {
      log.info(`${(error as Error).message}; the prices read before stay in force`);
    }
    return current;
  };
}

/**
 * What a cluster charges for on-device work by default: it serves other people, so the spec's request fee ($0.05 per
 * successful request and batch, "Limits") applies; usage by the minute is the operator's to set (the spec publishes
 * per-minute prices only for hosted families Voxdesk does not run on device). A pricing file's `default` or a
 * model's own entry replaces it. The desktop app and a plain `voxdesk serve` on SQLite keep on-device work free.
 */
export const CLUSTER_DEFAULT_PRICING: Pricing = { currency: 'USD', request_fee_usd: 0.05, per_minute_usd: 0, options: {} };

/** The pricing file with the cluster's default where it names none (`pricing` as the Catalogue takes it). */
export function withClusterDefault(pricing: PricingFile | (() => PricingFile)): () => PricingFile {
  const read = typeof pricing === 'function' ? pricing : () => pricing;
  let last: PricingFile | null = null;
  let made: PricingFile = EMPTY_PRICING_FILE;
  return () => {
    const file = read();
    if (file !== last) {
      last = file;
      made = file.default ? file : { ...file, default: CLUSTER_DEFAULT_PRICING };
    }
    return made;
  };
}
