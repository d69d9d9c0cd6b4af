/**
 * Language-model actions on a hosted, priced endpoint (docs/ai-actions.md "Price and the monthly cap"), through the
 * HTTP API with the scriptable OpenAI-compatible chat server on loopback as the endpoint (the true boundary): the
 * price in the settings (bad ones 400), a POST the monthly cap cannot take refused with 402 budget_exceeded and
 * nothing created, one it can take charged from the usage the endpoint reported (or the estimate when it reports
 * none) and shown in GET /v1/usage and the budget, each request's max_tokens, a cap reached between parts failing the
 * job with budget_exceeded and charging what was answered, a cancelled action charged for what it received, and a free
 * endpoint charging nothing, as before.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BudgetSettings, Job, UsageReport } from '../../../../src-main/common/api-types.js';
import { isTerminal } from '../../../../src-main/common/job-states.js';
import { startChatServer, type ChatServer } from '../../../helpers/chat-server.js';
import { Client, expectError, json } from '../../../helpers/http-client.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { diarizedResult, insertJob, type SpokenSegment } from '../../../helpers/transcript-jobs.js';
import { scaled } from '../../../helpers/time-scale.js';

let t: TestService;
let chat: ChatServer;
let api: Client;
let account: string;
let short: string;
let long: string;

const PRICE = { input_per_million_tokens: 2, output_per_million_tokens: 8 };

function put(path: string, body: unknown): Promise<Response> {
  return fetch(`${t.url}${path}`, { method: 'PUT', headers: api.headers({ 'content-type': 'application/json' }), body: JSON.stringify(body) });
}

async function finished(id: string): Promise<Job> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const job = await json<Job>(api.get(`/v1/transcript-ai/${id}`));
    if (isTerminal(job.status)) return job;
    if (Date.now() > deadline) throw new Error(`AI job ${id} did not finish: ${job.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function act(source: string, body: Record<string, unknown>): Promise<Job> {
  const job = await json<Job>(api.postJson(`/v1/speech-to-text/${source}/ai`, body));
  return isTerminal(job.status) ? job : finished(job.id);
}

const aiJobCount = async (): Promise<number> => (await json<{ data: Job[] }>(api.get('/v1/jobs?product=transcript-ai&limit=100'))).data.length;
const usageCharges = (jobId: string) => t.service.repos.ledger.forAccount(account).filter((r) => r.job_id === jobId && r.kind === 'usage');
const budget = (): Promise<BudgetSettings> => json<BudgetSettings>(api.get('/v1/settings/budget'));

beforeAll(async () => {
  chat = await startChatServer();
  t = await startTestService({ dataDir: undefined });
  api = new Client(t.url, t.key);
  account = t.service.repos.accounts.ensureAccount('local').id;
  short = insertJob(t.service.repos, {
    accountId: account,
    name: 'standup.wav',
    result: diarizedResult([
      { start: 0, end: 4, text: 'yesterday I fixed the login page' },
      { start: 4, end: 9, text: 'today I will write the release notes' },
    ]),
  });
  const segments: SpokenSegment[] = [];
  for (let i = 0; i < 200; i++) segments.push({ start: i * 5, end: i * 5 + 4.5, text: `segment number ${i} says something about topic ${Math.floor(i / 20)}` });
  long = insertJob(t.service.repos, { accountId: account, name: 'long.wav', result: diarizedResult(segments) });
}, scaled(60_000));
afterAll(async () => {
  await t?.stop();
  await chat?.close();
});
beforeEach(() => chat.reset());

describe('the price of a language-model endpoint', () => {
  it('is optional, kept and returned; a negative, non-number or misshapen price is 400 and changes nothing', async () => {
    const saved = await json<{ price: unknown }>(put('/v1/settings/language-model', { base_url: chat.baseUrl, model: 'tiny-chat' }));
    expect(saved.price).toBeNull();
    expect((await json<{ price: unknown }>(put('/v1/settings/language-model', { base_url: chat.baseUrl, model: 'tiny-chat', price: PRICE }))).price).toEqual(PRICE);
    const bad: unknown[] = [
      { input_per_million_tokens: -1, output_per_million_tokens: 8 },
      { input_per_million_tokens: '2', output_per_million_tokens: 8 },
      { input_per_million_tokens: 2 },
      { input_per_million_tokens: 2, output_per_million_tokens: 8, currency: 'EUR' },
      { input_per_million_tokens: 2, output_per_million_tokens: 1e9 },
      '2/8',
      [2, 8],
    ];
    for (const price of bad) {
      const message = await expectError(put('/v1/settings/language-model', { base_url: chat.baseUrl, model: 'tiny-chat', price }), 400, 'invalid_request');
      expect(message, JSON.stringify(price)).toMatch(/price/);
    }
    expect((await json<{ price: unknown }>(api.get('/v1/settings/language-model'))).price).toEqual(PRICE);
  });
});

describe('AI actions on a priced endpoint and the monthly cap', () => {
  beforeAll(async () => {
    await json(put('/v1/settings/language-model', { base_url: chat.baseUrl, model: 'tiny-chat', price: PRICE }));
  });

  it('a cap that cannot take the estimate refuses the POST with 402 budget_exceeded: nothing created, nothing asked', async () => {
    await json(put('/v1/settings/budget', { monthly_usd: 0.001 }));
    const before = await aiJobCount();
    const message = await expectError(api.postJson(`/v1/speech-to-text/${short}/ai`, { action: 'summary' }), 402, 'budget_exceeded');
    expect(message).toMatch(/monthly cap for hosted work \(\$0\.001\) has \$0\.001 left in \d{4}-\d\d, less than this AI action's estimate \(\$0\.0\d+\)\. Raise the cap/);
    expect(await aiJobCount()).toBe(before);
    expect(chat.calls).toEqual([]);
  });

  it('a cap that can take it: the action runs, each request capped by max_tokens, charged from the reported usage', async () => {
    await json(put('/v1/settings/budget', { monthly_usd: 5 }));
    chat.usageFor = () => ({ prompt_tokens: 1000, completion_tokens: 250 });
    const job = await act(short, { action: 'summary' });
    expect(job.status, job.error_message ?? '').toBe('succeeded');
    expect(chat.calls).toHaveLength(1);
    expect(chat.calls[0]!.maxTokens).toBeGreaterThan(0);
    expect(job.result!.ai!.tokens).toMatchObject({ prompt: 1000, completion: 250, estimated: false });
    // 1000 × $2 + 250 × $8 per million tokens = $0.004.
    expect(usageCharges(job.id).map((r) => [r.amount_usd_micro, r.provider, r.product, r.model_id])).toEqual([[4000, 'remote', 'transcript-ai', 'language-model']]);
    const usage = await json<UsageReport>(api.get('/v1/usage?group_by=product'));
    expect(usage.data.find((g) => g.key === 'transcript-ai')).toMatchObject({ total_usd: 0.004, hosted_usd: 0.004 });
    const status = await budget();
    expect(status.spent_usd).toBeCloseTo(0.004, 6);
    expect(status.reserved_usd).toBe(0); // the job's reservation ended with it
  });

  it('an endpoint that reports no usage is charged the estimate of what was sent and answered', async () => {
    chat.reportUsage = false;
    const job = await act(short, { action: 'action_items' });
    expect(job.status, job.error_message ?? '').toBe('succeeded');
    const { prompt, completion, estimated } = job.result!.ai!.tokens;
    expect(estimated).toBe(true);
    expect(prompt).toBeGreaterThan(0);
    expect(usageCharges(job.id).map((r) => r.amount_usd_micro)).toEqual([prompt * 2 + completion * 8]);
  });

  it('past its reservation between parts, the cap fails the job with budget_exceeded; what was answered is charged', async () => {
    await json(put('/v1/settings/language-model', { base_url: chat.baseUrl, model: 'tiny-chat', price: PRICE, context_tokens: 1000 }));
    const spent = (await budget()).spent_usd;
    await json(put('/v1/settings/budget', { monthly_usd: spent + 0.05 }));
    // The endpoint bills far more than its text: the first part alone costs $0.04, more than the job reserved.
    chat.usageFor = () => ({ prompt_tokens: 20_000, completion_tokens: 0 });
    const job = await act(long, { action: 'summary' });
    expect(job).toMatchObject({ status: 'failed', error_code: 'budget_exceeded' });
    expect(job.error_message).toMatch(/monthly cap for hosted work .* Raise the cap/);
    const asked = chat.calls.length;
    expect(asked).toBeGreaterThanOrEqual(1);
    expect(asked).toBeLessThan(5);
    expect(usageCharges(job.id).map((r) => r.amount_usd_micro)).toEqual([asked * 40_000]);
    expect((await budget()).reserved_usd).toBe(0);
  });

  it('a cancelled action is charged for the answers it received before the cancel', async () => {
    await json(put('/v1/settings/budget', { monthly_usd: 100 }));
    chat.usageFor = () => ({ prompt_tokens: 500, completion_tokens: 50 });
    let cancelled: Promise<unknown> | null = null;
    let pending = '';
    chat.delayMs = 300;
    chat.onRequest = () => {
      // The second request: the first answer is kept; cancel while this one is asked.
      if (chat.calls.length === 2) cancelled = json(api.post(`/v1/transcript-ai/${pending}/cancel`));
    };
    const posted = await json<Job>(api.postJson(`/v1/speech-to-text/${long}/ai?wait=false`, { action: 'summary' }));
    pending = posted.id;
    const job = await finished(posted.id);
    await cancelled;
    expect(job.status).toBe('cancelled');
    const answered = (await t.service.store.repos.transcriptAi.parts(job.id)).length;
    expect(answered).toBeGreaterThanOrEqual(1);
    // 500 × $2 + 50 × $8 per million tokens per answer received.
    expect(usageCharges(job.id).map((r) => r.amount_usd_micro)).toEqual([answered * 1400]);
  });

  it('a free endpoint (no price) charges nothing and is not capped, as before', async () => {
    await json(put('/v1/settings/language-model', { base_url: chat.baseUrl, model: 'tiny-chat' }));
    await json(put('/v1/settings/budget', { monthly_usd: 0 }));
    const job = await act(short, { action: 'summary' });
    expect(job.status, job.error_message ?? '').toBe('succeeded');
    expect(usageCharges(job.id).every((r) => r.amount_usd_micro === 0)).toBe(true);
  });
});
