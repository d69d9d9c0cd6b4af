/**
 * The Usage page's work (src-renderer/src/usage/usage-view.svelte.ts) against a real service with the page's AppState
 * as host, and the pure series and CSV it shows (usage-range.ts).
 */
import { describe, expect, it } from 'vitest';
import type { UsageReport } from '../../../../src-main/common/api-types.js';
import { csvField, dailySeries, niceMax, periodDays, usageCsv } from '../../../../src-renderer/src/usage/usage-range.js';
import { UsageView } from '../../../../src-renderer/src/usage/usage-view.svelte.js';
import { useConnectedApp } from '../../../helpers/renderer-host.js';

const ctx = useConnectedApp({ workers: 1 });

describe('UsageView', () => {
  it('loads a period by day and by model from GET /v1/usage and builds the CSV of what it shows', async () => {
    const job = await ctx.app.api.transcribe({ file: new Blob([new Uint8Array(2000)]), filename: 'a.wav' }, { model: 'test-asr', params: { seconds: 120 } });
    expect(job.status).toBe('succeeded');
    const view = new UsageView(ctx.app);
    await view.load();
    expect(view.error).toBeNull();
    // $0.05 + 2 minutes at $0.006.
    expect(view.byDay).toMatchObject({ total_usd: 0.062, group_by: 'day' });
    expect(view.byModel!.data.map((g) => [g.key, g.total_usd])).toEqual([['test-asr', 0.062]]);
    const csv = view.csv()!.split('\r\n');
    expect(csv[0]).toBe('date,on_device_usd,hosted_usd,total_usd,request_fees_usd,usage_usd,options_usd,audio_seconds,requests');
    const today = new Date().toISOString().slice(0, 10);
    expect(csv).toContain(`${today},0.062000,0.000000,0.062000,0.050000,0.012000,0.000000,120,1`);
    expect(csv).toContain('test-asr,0.062000,0.000000,0.062000,0.050000,0.012000,0.000000,120,1');

    view.period = 'custom';
    view.customFrom = '2026-06-10';
    view.customTo = '2026-06-01';
    await view.load();
    expect(view.error).toMatch(/is not before to/);
    view.customFrom = '';
    await view.load();
    expect(view.error).toBe('Choose the first and the last day.');
  });
});

describe('usage series', () => {
  it('fills the days of a period, scales the chart, and quotes CSV fields a spreadsheet would run', () => {
    const now = new Date('2026-03-15T12:00:00Z');
    expect(periodDays('this-month', now)).toEqual({ from: '2026-03-01', to: '2026-03-15' });
    expect(periodDays('last-month', now)).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(periodDays('last-30-days', now)).toEqual({ from: '2026-02-14', to: '2026-03-15' });
    const report = {
      from: '2026-03-01T00:00:00.000Z', to: '2026-03-04T00:00:00.000Z',
      data: [{ key: '2026-03-02', on_device_usd: 0.01, hosted_usd: 0.05, total_usd: 0.06 }],
    } as unknown as UsageReport;
    expect(dailySeries(report).map((d) => [d.day, d.total_usd])).toEqual([['2026-03-01', 0], ['2026-03-02', 0.06], ['2026-03-03', 0]]);
    expect([niceMax(0), niceMax(0.06), niceMax(0.2), niceMax(3)]).toEqual([0.01, 0.1, 0.2, 5]);
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    // A leading tab or CR hides the formula from a check of the first character only (trust review 2, item 12).
    expect(csvField('\t=1+1')).toBe("'\t=1+1");
    expect(csvField('\r=1+1')).toBe('"\'\r=1+1"');
    expect(csvField('remote:test')).toBe('remote:test');
    const amounts = { total_usd: 0.06, request_fees_usd: 0.05, usage_usd: 0.01, options_usd: 0, seconds: 60, requests: 1 };
    const full = { ...report, ...amounts, on_device: { ...amounts, total_usd: 0.01 }, hosted: { ...amounts, total_usd: 0.05 } } as unknown as UsageReport;
    // A header, three days, the total, and the closing line break.
    expect(usageCsv(full, null).split('\r\n')).toEqual([expect.stringMatching(/^date,/), expect.stringMatching(/^2026-03-01,/), expect.stringMatching(/^2026-03-02,0.010000,0.050000,0.060000,/), expect.stringMatching(/^2026-03-03,/), 'total,0.010000,0.050000,0.060000,0.050000,0.010000,0.000000,60,1', '']);
  });
});
