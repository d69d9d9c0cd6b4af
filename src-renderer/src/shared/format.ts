/**
 * Display formatting shared by the tabs, in the interface's language (Intl): sizes, money, relative and absolute
 * times, days and months. Media positions stay clocks ("1:02:03"), which read the same everywhere. Each function
 * reads the current language, so text drawn with it follows a switch in Settings.
 */
import { language, t } from './i18n/i18n.svelte.js';

export function formatClock(seconds: number): string {
  const s = Math.max(0, seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = Math.floor(s % 60);
  const mm = String(m).padStart(h ? 2 : 1, '0');
  return h ? `${h}:${mm}:${String(sec).padStart(2, '0')}` : `${mm}:${String(sec).padStart(2, '0')}`;
}

export function formatNumber(value: number, options: Intl.NumberFormatOptions = {}): string {
  return new Intl.NumberFormat(language(), options).format(value);
}

const BYTE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;

/** Decimal units as downloads and file managers count them: "103 MB", "1.5 kB" ("1,5 kB" in German). */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  const digits = value >= 10 || unit === 0 ? 0 : 1;
  return formatNumber(value, { style: 'unit', unit: BYTE_UNITS[unit], unitDisplay: 'short', maximumFractionDigits: digits, minimumFractionDigits: digits });
}

/**
 * Dollars as the ledger has them: cents when the amount is whole cents ($0.12), else the digits that matter
 * ($0.0511, $0.000125), so two amounts that differ never read the same. Written the way the language writes money
 * ("0,12 $" in German); the currency stays USD, which is what the service charges in.
 */
export function formatMoney(usd: number): string {
  const micro = Math.round(usd * 1e6);
  const digits = micro % 10_000 === 0 ? 2 : micro % 100 === 0 ? 4 : 6;
  return formatNumber(micro / 1e6, { style: 'currency', currency: 'USD', minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** A price: "Free" for nothing, else dollars to the cent, or to the digit that shows a price under a cent. */
export function formatUsd(usd: number): string {
  if (usd === 0) return t('format.free');
  const digits = usd < 0.01 ? 4 : 2;
  return formatNumber(usd, { style: 'currency', currency: 'USD', minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Whole cents of a price per minute and a request fee: the Models table. */
export function formatRate(perMinuteUsd: number, requestFeeUsd: number): string {
  if (!perMinuteUsd && !requestFeeUsd) return t('format.free');
  return t('format.rate', { perMinute: formatUsd(perMinuteUsd), fee: formatUsd(requestFeeUsd) });
}

/** "just now", "5 minutes ago", "3 hours ago", then the date: for `now`, pass a clock that ticks (clock.svelte.ts). */
export function formatWhen(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '—';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const diff = Math.round((now - at) / 1000);
  const relative = new Intl.RelativeTimeFormat(language(), { numeric: 'auto', style: 'long' });
  if (diff < 45) return relative.format(0, 'second');
  if (diff < 3600) return relative.format(-Math.max(1, Math.round(diff / 60)), 'minute');
  if (diff < 86400) return relative.format(-Math.round(diff / 3600), 'hour');
  return formatDate(iso);
}

/** A date in the language's own short way ("12 Mar 2026", "12.03.2026"). */
export function formatDate(iso: string): string {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? iso : new Intl.DateTimeFormat(language(), { dateStyle: 'medium' }).format(at);
}

/** A time of day ("14:05", "2:05 PM"). */
export function formatTime(iso: string): string {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? iso : new Intl.DateTimeFormat(language(), { timeStyle: 'short' }).format(at);
}

/** `2026-06` → "June 2026" ("Juni 2026"): a UTC month, as the service counts them. */
export function formatMonth(month: string): string {
  const at = Date.parse(`${month}-01T00:00:00Z`);
  return Number.isNaN(at) ? month : new Intl.DateTimeFormat(language(), { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(at);
}

/** `2026-07-01T00:00:00.000Z` → "1 July" ("1. Juli"): a UTC day, such as the day the cap starts again. */
export function formatDay(iso: string): string {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? iso : new Intl.DateTimeFormat(language(), { day: 'numeric', month: 'long', timeZone: 'UTC' }).format(at);
}

/** A `YYYY-MM-DD` UTC day as the chart's axis shows it ("3/14", "14.3."). */
export function formatShortDay(day: string): string {
  const at = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(at) ? day : new Intl.DateTimeFormat(language(), { day: 'numeric', month: 'numeric', timeZone: 'UTC' }).format(at);
}

/** Language codes in a short list: "en, de, fr +22". */
export function formatLanguages(codes: readonly string[], max = 4): string {
  if (!codes.length) return t('format.anyLanguage');
  const head = codes.slice(0, max).join(', ');
  return codes.length > max ? `${head} +${codes.length - max}` : head;
}
