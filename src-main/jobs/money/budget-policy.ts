/**
 * The monthly spending cap for hosted work, stored in the settings table under `budget` as whole micro-dollars
 * (`{"monthly_usd_micro": 120000}`, or null for no cap — the default). The scheduler reads it on every pass, so a
 * change applies at once and releases the work it held (jobs/spending-cap.ts). PUT /v1/settings/budget takes
 * `{"monthly_usd": number|null}` in dollars.
 */
import { refuseUnknownFields } from '../../common/unknown-fields.js';
import { ApiError } from '../../common/errors.js';
import { fromMicro, toMicro } from '../../common/pricing.js';
import type { AsyncSettingsRepo } from '../../store/store.js';

export const BUDGET_SETTING_KEY = 'budget';

/** Largest cap accepted, in dollars (anything larger is a typo; no cap is `null`). */
export const MAX_MONTHLY_USD = 1_000_000;

/** The cap in micro-dollars, or null for no cap (the default, and what an unreadable stored value means). */
export async function readMonthlyCapMicro(settings: AsyncSettingsRepo): Promise<number | null> {
  let stored: unknown;
  try {
    stored = await settings.get<unknown>(BUDGET_SETTING_KEY);
  } catch {
    return null; // a hand-edited, unparsable value must not stop the scheduler
  }
  const micro = (stored as { monthly_usd_micro?: unknown } | null | undefined)?.monthly_usd_micro;
  return typeof micro === 'number' && Number.isInteger(micro) && micro >= 0 ? micro : null;
}

export async function saveMonthlyCapMicro(settings: AsyncSettingsRepo, micro: number | null): Promise<void> {
  await settings.set(BUDGET_SETTING_KEY, { monthly_usd_micro: micro });
}

/**
 * Validates a PUT body: exactly `{"monthly_usd": number|null}`. Unknown fields → unsupported_param; a missing field,
 * a string, a negative, a non-finite or a too large number → invalid_params, naming the field. Amounts are kept to
 * the micro-dollar (the ledger's unit): 0.1234567 is stored as 0.123457.
 */
export function parseBudgetUpdate(body: Record<string, unknown>): number | null {
  refuseUnknownFields(body, ['monthly_usd'], '', 'the budget (dollars a month for hosted work, or null for no cap)');
  if (!('monthly_usd' in body)) throw new ApiError('invalid_params', 'monthly_usd is required: dollars a month for hosted work (e.g. 5 or 12.5), or null for no cap');
  const value = body.monthly_usd;
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new ApiError('invalid_params', `monthly_usd must be a number of dollars (e.g. 5 or 12.5) or null for no cap, got ${JSON.stringify(value)}`);
  }
  if (value < 0) throw new ApiError('invalid_params', `monthly_usd must not be negative, got ${value}; 0 allows no hosted spending, null removes the cap`);
  if (value > MAX_MONTHLY_USD) throw new ApiError('invalid_params', `monthly_usd must be at most ${MAX_MONTHLY_USD}, got ${value}`);
  return toMicro(value);
}

export function capUsd(micro: number | null): number | null {
  return micro === null ? null : fromMicro(micro);
}
