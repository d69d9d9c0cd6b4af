/**
 * Issue 17's acceptance, tried as a new user would, in Debian's Chromium against a real `voxdesk serve --ui` that
 * forwards to a hosted instance (a second real service whose operator charges $0.05 a request for its test voice):
 * set a $0.12 monthly cap; the price and what is left show before each click; two jobs run, the third waits with
 * its reason on screen; "Raise the cap" leads to the cap, and raising it lets the third finish; the Usage page shows
 * the same money as the hosted service's own GET /v1/usage. Dropped recordings for a hosted model wait for the
 * click with their price; a watch folder on a hosted model shows a recording's price before it is added.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsageReport } from '../../src-main/common/api-types.js';
import type { TestService } from '../helpers/service.js';
import { SHARED } from '../helpers/system.js';
import { startHosted } from '../helpers/two-instances.js';
import { ROOT, startServeUi, type ServedUi } from './serve-ui.js';
import { openLoggedInPage, type Chromium } from './logged-in-page.js';
import { scaled } from '../helpers/time-scale.js';

const SHOTS = join(ROOT, 'test-artifacts', 'screenshots');
let hosted: TestService;
let served: ServedUi;
let browser: Chromium;
let page: Page;
let dir: string;
const pageErrors: string[] = [];

async function openTab(name: string, key: number): Promise<void> {
  await page.keyboard.press(`Control+${key}`);
  await expect.poll(() => page.getAttribute(`#tab-${name}`, 'aria-selected')).toBe('true');
}

describe('money in the browser: a hosted key, a $0.12 cap, $0.05 a request', () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'voxdesk-e2e-money-'));
    const pricingFile = join(dir, 'hosted-pricing.json');
    writeFileSync(pricingFile, JSON.stringify({ models: { 'test-tts': { request_fee_usd: 0.05, per_minute_usd: 0 } } }));
    hosted = await startHosted({ holdSeconds: 5, pricingFile });
    served = await startServeUi({ env: { VOXDESK_REMOTE_URL: hosted.url, VOXDESK_REMOTE_KEY: hosted.key } });
    ({ browser, page } = await openLoggedInPage(served, pageErrors));
    await page.getByRole('tab', { name: /Usage/ }).waitFor();
  }, scaled(120_000));

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    await hosted?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sets the cap on the Usage page', async () => {
    // The Usage page reads the budget when it opens; on a busy machine that answer can come back after the person
    // has started typing, and must not wipe out what they typed. Hold it back until they have.
    const isBudgetRead = (url: URL, method: string): boolean => url.pathname === '/v1/settings/budget' && method === 'GET';
    let typed!: () => void;
    const typing = new Promise<void>((resolve) => (typed = resolve));
    await page.route((url) => url.pathname === '/v1/settings/budget', async (route) => {
      if (route.request().method() === 'GET') await typing;
      await route.continue();
    });
    const lateRead = page.waitForResponse((r) => isBudgetRead(new URL(r.url()), r.request().method()));
    await openTab('usage', 6);
    const panel = page.locator('#panel-usage');
    await expect.poll(() => panel.getByTestId('budget-remaining').innerText()).toBe('No cap');
    await panel.getByLabel('Cap per month (USD)').fill('-5');
    typed();
    await lateRead;
    await page.unroute((url) => url.pathname === '/v1/settings/budget');
    await expect.poll(() => panel.getByLabel('Cap per month (USD)').inputValue()).toBe('-5');
    await panel.getByRole('button', { name: 'Save cap' }).click();
    await expect.poll(() => panel.getByRole('alert').innerText()).toMatch(/amount in dollars/);
    await panel.getByLabel('Cap per month (USD)').fill('0.12');
    await panel.getByRole('button', { name: 'Save cap' }).click();
    await expect.poll(() => panel.getByTestId('budget-remaining').innerText()).toBe('$0.12');
  });

  it('shows the price and what is left before each click; two run, the third waits with its reason', async () => {
    await openTab('speak', 2);
    const panel = page.locator('#panel-speak');
    const picker = panel.locator('#tts-model');
    await expect.poll(() => picker.locator('option[value="remote:test-tts"]').count(), { timeout: scaled(30_000) }).toBe(1);
    await picker.selectOption('remote:test-tts');
    const cost = panel.getByTestId('cost-line');
    const speak = panel.getByRole('button', { name: /^Speak/ });
    for (const [i, left] of [[1, '$0.12'], [2, '$0.07']] as const) {
      await panel.locator('#tts-text').fill(`Hosted sentence number ${i}.`);
      await expect.poll(() => cost.innerText()).toMatch(new RegExp(`≈ \\$0\\.05 on the hosted service[\\s\\S]*\\${left} left of \\$0\\.12 this month`));
      expect(await cost.innerText()).not.toMatch(/wait for the budget/);
      await speak.click();
      await expect.poll(() => panel.locator('[aria-label="Result"] [data-status]').getAttribute('data-status'), { timeout: scaled(60_000) }).toBe('succeeded');
    }
    await panel.locator('#tts-text').fill('Hosted sentence number 3.');
    // Before the click: the price, what is left, and that it would wait.
    await expect.poll(() => cost.innerText()).toMatch(/≈ \$0\.05 on the hosted service[\s\S]*\$0\.02 left of \$0\.12 this month[\s\S]*it will wait for the budget/);
    await speak.click();
    const result = panel.locator('[aria-label="Result"]');
    await expect.poll(() => result.locator('[data-status]').innerText(), { timeout: scaled(30_000) }).toMatch(/Queued · budget/);
    await expect.poll(() => result.getByTestId('waiting-reason').innerText()).toMatch(/would pass the monthly cap for hosted work: \$0\.10 of \$0\.12/);
    await expect.poll(() => panel.getByTestId('budget-wait').innerText()).toMatch(/1 hosted item waits for the monthly budget/);
    await expect.poll(() => page.locator('.sidebar [role="status"]').innerText()).toMatch(/1 waiting for the budget/);
    await page.screenshot({ path: join(SHOTS, 'speak-waiting-for-budget.png'), fullPage: true });

    // The Jobs tab says why too.
    await openTab('jobs', 4);
    await expect.poll(() => page.locator('#panel-jobs').getByTestId('waiting-reason').first().innerText()).toMatch(/monthly cap/);
  });

  it('"Raise the cap" leads to the cap; raised, the third finishes', async () => {
    await openTab('speak', 2);
    const panel = page.locator('#panel-speak');
    await panel.getByTestId('budget-wait').getByRole('button', { name: 'Raise the cap' }).click();
    await expect.poll(() => page.getAttribute('#tab-usage', 'aria-selected')).toBe('true');
    const usage = page.locator('#panel-usage');
    const field = usage.getByLabel('Cap per month (USD)');
    await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
    await field.fill('0.20');
    await usage.getByRole('button', { name: 'Save cap' }).click();
    await openTab('speak', 2);
    await expect.poll(() => panel.locator('[aria-label="Result"] [data-status]').getAttribute('data-status'), { timeout: scaled(60_000) }).toBe('succeeded');
    await expect.poll(() => panel.getByTestId('budget-wait').count()).toBe(0);
  });

  it('Usage shows the same money as the hosted service\'s own GET /v1/usage', async () => {
    const theirs = (await (await fetch(`${hosted.url}/v1/usage`, { headers: { authorization: `Bearer ${hosted.key}` } })).json()) as UsageReport;
    expect(theirs.total_usd).toBe(0.15);
    await openTab('usage', 6);
    const panel = page.locator('#panel-usage');
    await expect.poll(() => panel.getByTestId('usage-hosted').innerText()).toBe(`$${theirs.total_usd.toFixed(2)}`);
    await expect.poll(() => panel.getByTestId('usage-total').innerText()).toBe('$0.15');
    await expect.poll(() => panel.getByTestId('budget-remaining').innerText()).toBe('$0.05');
    await expect.poll(() => panel.getByTestId('usage-by-model').innerText()).toMatch(/Hosted[\s\S]*\$0\.15/);
    await page.screenshot({ path: join(SHOTS, 'usage-hosted.png'), fullPage: true });
    const [download] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^voxdesk-usage-\d{4}-\d{2}-01-to-\d{4}-\d{2}-\d{2}\.csv$/);
  });

  it('recordings dropped for a hosted model wait for the click, with their length and price', async () => {
    await openTab('transcribe', 1);
    const panel = page.locator('#panel-transcribe');
    const picker = panel.locator('#asr-model');
    await expect.poll(() => picker.locator('option[value="remote:test-asr"]').count(), { timeout: scaled(30_000) }).toBe(1);
    await picker.selectOption('remote:test-asr');
    await panel.locator('[data-testid="file-input"]').setInputFiles(join(SHARED, 'audio', 'jfk.wav'));
    const staged = panel.getByTestId('staged');
    // jfk.wav is 11 s: $0.05 + 11 s at $0.006 a minute = $0.0511 on the hosted catalogue's price.
    await expect.poll(() => staged.innerText()).toMatch(/1 recording for the hosted service[\s\S]*0:11 of audio[\s\S]*≈ \$0\.0511 on the hosted service[\s\S]*\$0\.05 left of \$0\.20 this month[\s\S]*it will wait for the budget/);
    expect(await panel.locator('.list li').count()).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'transcribe-hosted-staged.png'), fullPage: true });
    await staged.getByRole('button', { name: /Discard/ }).click();
    expect(await panel.getByTestId('staged').count()).toBe(0);
  });

  it('a watch folder on a hosted model shows the price of a recording and what is left before it is added', async () => {
    await openTab('settings', 7);
    const form = page.getByTestId('watch-folders');
    const picker = form.locator('#watch-model');
    await expect.poll(() => picker.locator('option[value="remote:test-asr"]').count(), { timeout: scaled(30_000) }).toBe(1);
    await picker.selectOption('remote:test-asr');
    // A one-minute recording: $0.05 + $0.006 = $0.0560, more than the $0.05 left.
    await expect.poll(() => form.getByTestId('cost-line').innerText()).toMatch(/Each 1-minute recording · ≈ \$0\.0560 on the hosted service[\s\S]*\$0\.05 left of \$0\.20 this month[\s\S]*it will wait for the budget/);
    await form.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'settings-watch-hosted.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
  });
});
