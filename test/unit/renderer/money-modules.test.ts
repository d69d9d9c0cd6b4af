/**
 * The renderer's money modules against a real service with the page's AppState as host: the monthly cap
 * (spending-budget.svelte.ts), the Usage page (usage-view.svelte.ts), files staged for a hosted model with their
 * lengths (staged-files.svelte.ts); and the pure wording and series they show (cost-text.ts, usage-range.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BudgetSettings, Quote, UsageReport } from '../../../src-main/common/api-types.js';
import type { AppState } from '../../../src-renderer/src/lib/app-state.svelte.js';
import { costText, formatMoney, parseCapInput } from '../../../src-renderer/src/lib/cost-text.js';
import { SpendingBudget } from '../../../src-renderer/src/lib/spending-budget.svelte.js';
import { StagedFiles } from '../../../src-renderer/src/lib/staged-files.svelte.js';
import { csvField, dailySeries, niceMax, periodDays, usageCsv } from '../../../src-renderer/src/lib/usage-range.js';
import { UsageView } from '../../../src-renderer/src/lib/usage-view.svelte.js';
import { connectedAppState, until } from '../../helpers/renderer-host.js';
import { startTestService, type TestService } from '../../helpers/service.js';

let svc: TestService;
let app: AppState;

beforeAll(async () => {
  svc = await startTestService({ workers: 1 });
  app = connectedAppState(svc);
});
afterAll(async () => {
  app?.stopPolling();
  await svc?.stop();
});

describe('SpendingBudget', () => {
  it('reads the cap, sets it, removes it, and says the service\'s sentence for a refusal', async () => {
    const budget = new SpendingBudget(app);
    await budget.refresh();
    expect(budget.status).toMatchObject({ monthly_usd: null, remaining_usd: null, waiting: 0 });
    expect(await budget.setCap(0.12)).toBe(true);
    expect(budget.status).toMatchObject({ monthly_usd: 0.12, remaining_usd: 0.12 });
    expect(await budget.setCap(-1)).toBe(false);
    expect(budget.error).toMatch(/monthly_usd must not be negative/);
    expect(await budget.setCap(null)).toBe(true);
    expect(budget.status?.monthly_usd).toBeNull();
    expect(budget.error).toBeNull();
  });

  it('is the local account\'s: another account is told so', async () => {
    const { ApiClient } = await import('../../../src-main/common/api-client.js');
    const other = new SpendingBudget({ api: new ApiClient({ baseUrl: svc.url, apiKey: svc.service.keys.createKey('guest') }) });
    await other.refresh();
    expect(other.status).toBeNull();
    expect(other.unavailable).toMatch(/account of this computer/);
  });
});

describe('UsageView', () => {
  it('loads a period by day and by model from GET /v1/usage and builds the CSV of what it shows', async () => {
    const job = await app.api.transcribe({ file: new Blob([new Uint8Array(2000)]), filename: 'a.wav' }, { model: 'test-asr', params: { seconds: 120 } });
    expect(job.status).toBe('succeeded');
    const view = new UsageView(app);
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

describe('StagedFiles', () => {
  it('measures each file, keeps the order, and hands them over once', async () => {
    const lengths = new Map<string, number | null>([['a.wav', 11], ['b.webm', null], ['c.mp3', 60.5]]);
    const staged = new StagedFiles(async (file) => lengths.get(file.name) ?? null);
    staged.add([...lengths.keys()].map((name) => new File([new Uint8Array(10)], name)));
    await until(() => staged.measuring === 0, 'the lengths');
    expect(staged.seconds).toEqual([11, null, 60.5]);
    expect(staged.knownSeconds).toBe(71.5);
    expect(staged.unknown).toBe(1);
    expect(staged.take().map((f) => f.name)).toEqual(['a.wav', 'b.webm', 'c.mp3']);
    expect(staged.files).toEqual([]);
  });
});

describe('money words and series', () => {
  const budget = (patch: Partial<BudgetSettings>): BudgetSettings => ({
    monthly_usd: 0.12, currency: 'USD', month: '2026-06', period_start: '2026-06-01T00:00:00.000Z', resets_at: '2026-07-01T00:00:00.000Z',
    spent_usd: 0.1, reserved_usd: 0, remaining_usd: 0.02, waiting: 0, ...patch,
  });
  const quote = (total: number): Quote => ({ model_id: 'm', seconds: 0, request_fee_usd: total, usage_usd: 0, options_usd: 0, total_usd: total, currency: 'USD' });

  it('shows the price, what is left of the cap for hosted work, and whether it would wait', () => {
    expect(costText(quote(0.05), budget({}), true)).toEqual({ price: '≈ $0.05', budget: '$0.02 left of $0.12 this month', overCap: true });
    expect(costText(quote(0.02), budget({}), true).overCap).toBe(false);
    expect(costText(quote(0.05), budget({ monthly_usd: null, remaining_usd: null }), true)).toMatchObject({ budget: 'No monthly cap for hosted work', overCap: false });
    expect(costText(quote(0), budget({}), false)).toEqual({ price: 'Free', budget: null, overCap: false });
    expect(costText(null, null, true)).toEqual({ price: null, budget: null, overCap: false });
    expect([0, 0.12, 0.0511, 0.000125, 12.5].map(formatMoney)).toEqual(['$0.00', '$0.12', '$0.0511', '$0.000125', '$12.50']);
  });

  it('reads a typed cap, refusing what is not an amount of dollars', () => {
    expect(parseCapInput('12.50')).toEqual({ usd: 12.5 });
    expect(parseCapInput(' $5 ')).toEqual({ usd: 5 });
    expect(parseCapInput('0')).toEqual({ usd: 0 });
    expect(parseCapInput('')).toEqual({ usd: null });
    expect(parseCapInput('-3')).toHaveProperty('error');
    expect(parseCapInput('ten')).toHaveProperty('error');
    expect(parseCapInput('1e3')).toHaveProperty('error');
  });

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
