/**
 * The periods the Usage page offers, as the UTC days GET /v1/usage takes (`to` is taken in whole), and the per-day
 * series of its chart and CSV with the days without charges filled in. Pure.
 */
import type { UsageGroup, UsageReport } from '$common/api-types.js';

export const USAGE_PERIODS = ['this-month', 'last-month', 'last-30-days', 'custom'] as const;
export type UsagePeriod = (typeof USAGE_PERIODS)[number];

const DAY_MS = 86_400_000;

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** `from`/`to` (inclusive UTC days) of a period; `custom` passes the days typed. */
export function periodDays(period: UsagePeriod, now: Date, custom: { from: string; to: string } = { from: '', to: '' }): { from: string; to: string } {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  if (period === 'this-month') return { from: day(Date.UTC(y, m, 1)), to: day(now.getTime()) };
  if (period === 'last-month') return { from: day(Date.UTC(y, m - 1, 1)), to: day(Date.UTC(y, m, 1) - DAY_MS) };
  if (period === 'last-30-days') return { from: day(now.getTime() - 29 * DAY_MS), to: day(now.getTime()) };
  return custom;
}

export interface DayRow {
  day: string;
  on_device_usd: number;
  hosted_usd: number;
  total_usd: number;
  group: UsageGroup | null;
}

/** Longest series drawn day by day (a longer custom range is summed as the service sends it, without empty days). */
export const MAX_FILLED_DAYS = 400;

/** Every day of the report's range, zero where nothing was charged. */
export function dailySeries(report: UsageReport): DayRow[] {
  const byDay = new Map(report.data.map((g) => [g.key, g]));
  const start = Date.parse(report.from.slice(0, 10));
  const end = Date.parse(report.to);
  const rows: DayRow[] = [];
  const fill = (end - start) / DAY_MS <= MAX_FILLED_DAYS;
  const days = fill ? Array.from({ length: Math.max(0, Math.ceil((end - start) / DAY_MS)) }, (_, i) => day(start + i * DAY_MS)) : [...byDay.keys()];
  for (const key of days) {
    const group = byDay.get(key) ?? null;
    rows.push({ day: key, on_device_usd: group?.on_device_usd ?? 0, hosted_usd: group?.hosted_usd ?? 0, total_usd: group?.total_usd ?? 0, group });
  }
  return rows;
}

/** A round top for the chart's scale (1, 2, 5 × 10^n), at least the largest day. */
export function niceMax(value: number): number {
  if (value <= 0) return 0.01;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

const usd = (value: number): string => value.toFixed(6);

/** The CSV download: one row per day (filled), then one per model, each with the amounts in dollars to the micro-dollar. */
export function usageCsv(byDay: UsageReport, byModel: UsageReport | null): string {
  const lines = ['date,on_device_usd,hosted_usd,total_usd,request_fees_usd,usage_usd,options_usd,audio_seconds,requests'];
  for (const row of dailySeries(byDay)) {
    const g = row.group;
    lines.push([row.day, usd(row.on_device_usd), usd(row.hosted_usd), usd(row.total_usd), usd(g?.request_fees_usd ?? 0), usd(g?.usage_usd ?? 0), usd(g?.options_usd ?? 0), g?.seconds ?? 0, g?.requests ?? 0].join(','));
  }
  lines.push(['total', usd(byDay.on_device.total_usd), usd(byDay.hosted.total_usd), usd(byDay.total_usd), usd(byDay.request_fees_usd), usd(byDay.usage_usd), usd(byDay.options_usd), byDay.seconds, byDay.requests].join(','));
  if (byModel) {
    lines.push('', 'model,on_device_usd,hosted_usd,total_usd,request_fees_usd,usage_usd,options_usd,audio_seconds,requests');
    for (const g of byModel.data) {
      lines.push([csvField(g.key), usd(g.on_device_usd), usd(g.hosted_usd), usd(g.total_usd), usd(g.request_fees_usd), usd(g.usage_usd), usd(g.options_usd), g.seconds, g.requests].join(','));
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. A field a spreadsheet would
 * run as a formula (`=`, `+`, `-`, `@`, or a tab or carriage return before one, first: a hosted catalogue names its
 * own models) is kept as text with a `'` (OWASP's CSV injection rule).
 */
export function csvField(value: string): string {
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
