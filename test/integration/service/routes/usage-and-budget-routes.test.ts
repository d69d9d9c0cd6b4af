/**
 * GET /v1/usage and GET/PUT /v1/settings/budget over real HTTP: their answers, the defaults, and a clear error for
 * every bad input (issue 17, item 4) — caps that are negative, not numbers or too large, unknown fields, dates that
 * do not parse or do not exist, `from` after `to`, an unknown `group_by`, a parameter given twice or unknown — and
 * that only the local account reads or sets the cap.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BudgetSettings, Job, UsageReport } from '../../../../src-main/common/api-types.js';
import { Client, expectError, json } from '../../../helpers/http-client.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { scaled } from '../../../helpers/time-scale.js';

let t: TestService;
let api: Client;
let other: Client;
beforeAll(async () => {
  t = await startTestService({ holdSeconds: 30 });
  api = new Client(t.url, t.key);
  other = new Client(t.url, (await t.service.keys.createKey('someone-else')));
}, scaled(60_000));
afterAll(async () => t?.stop());

function put(client: Client, body: unknown, raw = false): Promise<Response> {
  return fetch(`${t.url}/v1/settings/budget`, {
    method: 'PUT',
    headers: client.headers({ 'content-type': 'application/json' }),
    body: raw ? (body as string) : JSON.stringify(body),
  });
}

describe('GET/PUT /v1/settings/budget', () => {
  it('answers the month (UTC) with no cap by default, then the cap set, its spending and what is left', async () => {
    const initial = await json<BudgetSettings>(api.get('/v1/settings/budget'));
    const now = new Date();
    expect(initial).toMatchObject({ monthly_usd: null, currency: 'USD', spent_usd: 0, reserved_usd: 0, remaining_usd: null, waiting: 0 });
    expect(initial.month).toBe(now.toISOString().slice(0, 7));
    expect(initial.period_start).toBe(`${initial.month}-01T00:00:00.000Z`);
    expect(Date.parse(initial.resets_at)).toBeGreaterThan(now.getTime());

    expect(await json<BudgetSettings>(put(api, { monthly_usd: 12.5 }))).toMatchObject({ monthly_usd: 12.5, remaining_usd: 12.5 });
    expect((await json<BudgetSettings>(api.get('/v1/settings/budget'))).monthly_usd).toBe(12.5);
    expect(await json<BudgetSettings>(put(api, { monthly_usd: 0.1234567 }))).toMatchObject({ monthly_usd: 0.123457 });
    expect(await json<BudgetSettings>(put(api, { monthly_usd: 0 }))).toMatchObject({ monthly_usd: 0, remaining_usd: 0 });
    expect(await json<BudgetSettings>(put(api, { monthly_usd: null }))).toMatchObject({ monthly_usd: null, remaining_usd: null });
  });

  it('refuses bad caps with invalid_params naming the field, and unknown fields with unsupported_param', async () => {
    expect(await expectError(put(api, { monthly_usd: -1 }), 400, 'invalid_params')).toMatch(/monthly_usd must not be negative/);
    expect(await expectError(put(api, { monthly_usd: '12' }), 400, 'invalid_params')).toMatch(/monthly_usd must be a number.*"12"/);
    expect(await expectError(put(api, { monthly_usd: true }), 400, 'invalid_params')).toMatch(/monthly_usd must be a number/);
    expect(await expectError(put(api, { monthly_usd: 1e12 }), 400, 'invalid_params')).toMatch(/at most/);
    expect(await expectError(put(api, {}), 400, 'invalid_params')).toMatch(/monthly_usd is required/);
    expect(await expectError(put(api, { monthly_usd: 5, currency: 'EUR' }), 400, 'unsupported_param')).toMatch(/currency/);
    await expectError(put(api, '{"monthly_usd": ', true), 400, 'invalid_json');
    await expectError(put(api, '[5]', true), 400, 'invalid_json');
    await expectError(fetch(`${t.url}/v1/settings/budget`, { method: 'PUT', headers: api.headers({ 'content-type': 'text/plain' }), body: '5' }), 415, 'unsupported_media_type');
    // Nothing was changed by the refusals.
    expect((await json<BudgetSettings>(api.get('/v1/settings/budget'))).monthly_usd).toBeNull();
  });

  it('belongs to the local account: another account gets 404, a missing key 401', async () => {
    await expectError(other.get('/v1/settings/budget'), 404, 'not_found');
    await expectError(put(other, { monthly_usd: 1000 }), 404, 'not_found');
    await expectError(fetch(`${t.url}/v1/settings/budget`), 401, 'unauthorized');
    expect((await json<BudgetSettings>(api.get('/v1/settings/budget'))).monthly_usd).toBeNull();
  });
});

describe('GET /v1/usage', () => {
  it('sums this month by day by default; each account sees only its own charges', async () => {
    const job = await json<Job>(api.postForm('/v1/speech-to-text', [
      { name: 'model', value: 'test-asr' },
      { name: 'params', value: '{"seconds": 90}' },
      { name: 'file', file: { name: 'a.wav', data: new Uint8Array(2000) } },
    ]));
    expect(job.status).toBe('succeeded');
    const report = await json<UsageReport>(api.get('/v1/usage'));
    const today = new Date().toISOString().slice(0, 10);
    // $0.05 + 90 s at $0.006/min = $0.059.
    expect(report).toMatchObject({
      object: 'usage', currency: 'USD', group_by: 'day', total_usd: 0.059, total_usd_micro: 59_000, request_fees_usd: 0.05,
      usage_usd: 0.009, options_usd: 0, seconds: 90, requests: 1, hosted: { total_usd: 0 }, on_device: { total_usd: 0.059 },
    });
    expect(report.from).toBe(`${today.slice(0, 7)}-01T00:00:00.000Z`);
    expect(report.data).toEqual([expect.objectContaining({ key: today, total_usd: 0.059, on_device_usd: 0.059, hosted_usd: 0 })]);
    expect((await json<UsageReport>(api.get('/v1/usage?group_by=model'))).data.map((g) => g.key)).toEqual(['test-asr']);
    expect((await json<UsageReport>(api.get('/v1/usage?group_by=product'))).data.map((g) => g.key)).toEqual(['speech-to-text']);
    expect(await json<UsageReport>(other.get('/v1/usage'))).toMatchObject({ total_usd: 0, data: [] });
    // Days and months are taken in whole as `to`; a range before today has nothing.
    expect((await json<UsageReport>(api.get(`/v1/usage?from=${today}&to=${today}`))).total_usd_micro).toBe(59_000);
    expect((await json<UsageReport>(api.get(`/v1/usage?from=2020-01&to=2020-12`))).to).toBe('2021-01-01T00:00:00.000Z');
    expect((await json<UsageReport>(api.get('/v1/usage?from=2020-01-01T00:00:00%2B02:00&to=2020-01-02'))).from).toBe('2019-12-31T22:00:00.000Z');
    // An unencoded + (read as a space) in a time zone is understood.
    expect((await json<UsageReport>(api.get('/v1/usage?from=2020-01-01T00:00:00+02:00&to=2020-01-02'))).from).toBe('2019-12-31T22:00:00.000Z');
  });

  it('refuses every bad input with 400 and a message naming the parameter', async () => {
    expect(await expectError(api.get('/v1/usage?from=yesterday'), 400, 'invalid_request')).toMatch(/from must be a day.*"yesterday"/);
    expect(await expectError(api.get('/v1/usage?to=2026-02-30'), 400, 'invalid_request')).toMatch(/^to must be a day/);
    expect(await expectError(api.get('/v1/usage?from=2026-06-01T12:00'), 400, 'invalid_request')).toMatch(/with its zone/);
    expect(await expectError(api.get('/v1/usage?from=2026-13'), 400, 'invalid_request')).toMatch(/from must be/);
    expect(await expectError(api.get('/v1/usage?from=2026-06-02&to=2026-06-01'), 400, 'invalid_request')).toMatch(/from \(2026-06-02T00:00:00.000Z\) is not before to \(2026-06-02T00:00:00.000Z\)/);
    expect(await expectError(api.get('/v1/usage?from=2026-06-10&to=2026-06-01T12:00:00Z'), 400, 'invalid_request')).toMatch(/is not before to/);
    expect(await expectError(api.get('/v1/usage?group_by=week'), 400, 'invalid_request')).toMatch(/group_by must be one of day, model, product, got "week"/);
    expect(await expectError(api.get('/v1/usage?group_by=day&group_by=model'), 400, 'invalid_request')).toMatch(/group_by was given 2 times/);
    expect(await expectError(api.get('/v1/usage?form=2026-06-01'), 400, 'unsupported_param')).toMatch(/unknown query parameter "form"/);
    await expectError(fetch(`${t.url}/v1/usage`), 401, 'unauthorized');
  });
});
