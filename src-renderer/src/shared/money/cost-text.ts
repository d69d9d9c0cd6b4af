/**
 * The words next to a button that starts paid work: the price (the quote), and for hosted work what is left of the
 * monthly cap and whether this would wait for it. Pure apart from the language, so the tabs and tests share one
 * wording.
 */
import type { BudgetSettings, Quote } from '$common/api-types.js';
import { toMicro } from '$common/pricing.js';
import { formatMoney } from '../format.js';
import { t } from '../i18n/i18n.svelte.js';

export interface CostText {
  /** "≈ $0.15", "Free", or null while there is nothing to price. */
  price: string | null;
  /** For hosted work: "$0.02 left of $0.12 this month", "No monthly cap for hosted work"; null otherwise. */
  budget: string | null;
  /** The quote is more than what is left: the work would wait for the budget. */
  overCap: boolean;
}

export function costText(quote: Quote | null, budget: BudgetSettings | null, hosted: boolean): CostText {
  const price = quote ? (quote.total_usd === 0 ? t('format.free') : t('money.about', { price: formatMoney(quote.total_usd) })) : null;
  if (!hosted || !budget) return { price, budget: null, overCap: false };
  if (budget.monthly_usd === null || budget.remaining_usd === null) return { price, budget: t('money.noCap'), overCap: false };
  const overCap = quote !== null && toMicro(quote.total_usd) > toMicro(budget.remaining_usd);
  return { price, budget: t('money.left', { left: formatMoney(budget.remaining_usd), cap: formatMoney(budget.monthly_usd) }), overCap };
}

/**
 * What a person types as a monthly cap: "12.50", "12,50", "$5", "0" (nothing hosted), or empty for no cap. A
 * negative or non-numeric amount gets a sentence, never a request.
 */
export function parseCapInput(text: string): { usd: number | null } | { error: string } {
  const trimmed = text.trim().replace(/^\$\s*|\s*\$$/g, '').replace(/^(\d+),(\d+)$/, '$1.$2');
  if (trimmed === '') return { usd: null };
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return { error: t('money.capNotAmount') };
  const usd = Number(trimmed);
  if (!Number.isFinite(usd) || usd > 1_000_000) return { error: t('money.capTooHigh', { max: formatMoney(1_000_000) }) };
  return { usd };
}
