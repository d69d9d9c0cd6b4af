/**
 * The words next to a button that starts paid work: the price (the quote), and for hosted work what is left of the
 * monthly cap and whether this would wait for it. Pure, so the tabs and tests share one wording.
 */
import type { BudgetSettings, Quote } from '$common/api-types.js';
import { toMicro } from '$common/pricing.js';

export interface CostText {
  /** "≈ $0.15", "Free", or null while there is nothing to price. */
  price: string | null;
  /** For hosted work: "$0.02 left of $0.12 this month", "No monthly cap for hosted work"; null otherwise. */
  budget: string | null;
  /** The quote is more than what is left: the work would wait for the budget. */
  overCap: boolean;
}

/**
 * Dollars as the ledger has them: cents when the amount is whole cents ($0.12), else the digits that matter
 * ($0.0511, $0.000125), so two amounts that differ never read the same.
 */
export function formatMoney(usd: number): string {
  const micro = Math.round(usd * 1e6);
  const digits = micro % 10_000 === 0 ? 2 : micro % 100 === 0 ? 4 : 6;
  return `$${(micro / 1e6).toFixed(digits)}`;
}

export function costText(quote: Quote | null, budget: BudgetSettings | null, hosted: boolean): CostText {
  const price = quote ? (quote.total_usd === 0 ? 'Free' : `≈ ${formatMoney(quote.total_usd)}`) : null;
  if (!hosted || !budget) return { price, budget: null, overCap: false };
  if (budget.monthly_usd === null || budget.remaining_usd === null) return { price, budget: 'No monthly cap for hosted work', overCap: false };
  const overCap = quote !== null && toMicro(quote.total_usd) > toMicro(budget.remaining_usd);
  return { price, budget: `${formatMoney(budget.remaining_usd)} left of ${formatMoney(budget.monthly_usd)} this month`, overCap };
}

/**
 * What a person types as a monthly cap: "12.50", "$5", "0" (nothing hosted), or empty for no cap. A negative or
 * non-numeric amount gets a sentence, never a request.
 */
export function parseCapInput(text: string): { usd: number | null } | { error: string } {
  const trimmed = text.trim().replace(/^\$\s*/, '');
  if (trimmed === '') return { usd: null };
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return { error: 'Enter an amount in dollars, like 5 or 12.50 — or leave it empty for no cap.' };
  const usd = Number(trimmed);
  if (!Number.isFinite(usd) || usd > 1_000_000) return { error: 'Enter at most $1,000,000 a month.' };
  return { usd };
}

/** `2026-06` → "June 2026" (a UTC month, as the service counts them). */
export function monthName(month: string): string {
  const at = Date.parse(`${month}-01T00:00:00Z`);
  return Number.isNaN(at) ? month : new Date(at).toLocaleDateString('en', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** `2026-07-01T00:00:00.000Z` → "1 July" (the day the cap's spending starts again, UTC). */
export function dayName(iso: string): string {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? iso : new Date(at).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', timeZone: 'UTC' });
}
