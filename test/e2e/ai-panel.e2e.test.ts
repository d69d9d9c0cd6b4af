/**
 * The AI panel as a new user tries it (issue 31's acceptance, as far as the UI goes), in Debian's Chromium against a
 * real `voxdesk serve --ui` with PocketSphinx and the scriptable OpenAI-compatible chat server on loopback: a
 * transcript of jfk.wav says no language model is set up, its link opens Settings, the endpoint is tested and saved
 * with a price,
 * a summary streams in, the chapters' cited times seek the player to where their segments start, and the library
 * search finds the summary's words (labelled as an AI answer) and opens the transcript with its AI panel on it.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../helpers/chat-server.js';
import { requireCommand, requireFile, SHARED } from '../helpers/system.js';
import { ROOT, startServeUi, type ServedUi } from './serve-ui.js';
import { openLoggedInPage, type Chromium } from './logged-in-page.js';
import { scaled } from '../helpers/time-scale.js';

let served: ServedUi;
let browser: Chromium;
let page: Page;
let chat: ChatServer;
const pageErrors: string[] = [];

describe('the AI panel in Chromium (browser mode)', () => {
  beforeAll(async () => {
    requireCommand('pocketsphinx_batch', 'pocketsphinx');
    requireFile('/usr/share/pocketsphinx/model/en-us/en-us', 'pocketsphinx-en-us');
    chat = await startChatServer();
    served = await startServeUi();
    ({ browser, page } = await openLoggedInPage(served, pageErrors));
  });

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    await chat?.close();
  });

  it('sets up the endpoint from the panel, streams a summary, and seeks the player from a chapter', async () => {
    const panel = page.locator('#panel-transcribe');
    const picker = panel.locator('#asr-model');
    await expect.poll(() => picker.locator('option').allInnerTexts()).toEqual(expect.arrayContaining([expect.stringMatching(/PocketSphinx/i)]));
    await picker.selectOption((await picker.locator('option', { hasText: /PocketSphinx/i }).first().getAttribute('value'))!);
    await panel.locator('[data-testid="file-input"]').setInputFiles([join(SHARED, 'audio', 'jfk.wav')]);
    const row = panel.locator('.list li').first();
    await expect.poll(() => row.locator('[data-status]').getAttribute('data-status'), { timeout: scaled(180_000) }).toBe('succeeded');
    await row.getByRole('button').first().click();

    // No endpoint yet: the panel says so and links to Settings.
    const ai = panel.locator('[data-testid="ai-panel"]');
    await expect.poll(() => ai.locator('[data-testid="ai-not-configured"]').count(), { timeout: scaled(20_000) }).toBe(1);
    await ai.getByRole('button', { name: 'Set one up in Settings' }).click();
    await expect.poll(() => page.getAttribute('#tab-settings', 'aria-selected')).toBe('true');
    const settings = page.locator('[data-testid="language-model-settings"]');
    await settings.locator('#lm-url').fill(chat.baseUrl);
    await settings.locator('#lm-model').fill('tiny-chat');
    await settings.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => settings.locator('[data-testid="lm-test-result"]').innerText()).toContain('tiny-chat is available');
    // A hosted endpoint's price per million tokens (optional; the hint says what it does).
    expect(await settings.locator('#lm-price-hint').innerText()).toMatch(/monthly cap/);
    await settings.locator('#lm-price-in').fill('0.5');
    await settings.locator('#lm-price-out').fill('1.5');
    await settings.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await fetch(`${served.url}/v1/settings/language-model`, { headers: { authorization: `Bearer ${served.apiKey}` } }).then((r) => r.json()) as { configured: boolean }).configured).toBe(true);
    expect((await fetch(`${served.url}/v1/settings/language-model`, { headers: { authorization: `Bearer ${served.apiKey}` } }).then((r) => r.json()) as { price: unknown }).price)
      .toEqual({ input_per_million_tokens: 0.5, output_per_million_tokens: 1.5 });

    // Back on the transcript: a summary streams in piece by piece, then stays as a result.
    await page.keyboard.press('Control+1');
    await expect.poll(() => ai.getByRole('button', { name: 'Summary' }).count(), { timeout: scaled(20_000) }).toBe(1);
    chat.answer = () => 'The speaker asks his fellow Americans what they can do for their country, not the other way round.';
    chat.pieceDelayMs = 250;
    await ai.getByRole('button', { name: 'Summary' }).click();
    await expect.poll(() => ai.locator('[data-testid="ai-stream"]').innerText(), { timeout: scaled(30_000) }).toMatch(/^The speaker/);
    await expect.poll(() => ai.locator('[data-testid="ai-result"]').count(), { timeout: scaled(60_000) }).toBe(1);
    expect(await ai.locator('[data-testid="ai-result"]').first().innerText()).toContain('what they can do for their country');

    // Chapters: each cited time is a link; a click seeks the player to its segment's start.
    chat.reset();
    await ai.getByRole('button', { name: 'Chapters' }).click();
    await expect.poll(() => ai.locator('[data-testid="ai-result"]').count(), { timeout: scaled(60_000) }).toBe(2);
    const chapters = ai.locator('[data-testid="ai-result"]').first();
    const cites = chapters.locator('button.cite');
    await expect.poll(() => cites.count()).toBeGreaterThan(0);
    const jobs = (await fetch(`${served.url}/v1/jobs?product=transcript-ai`, { headers: { authorization: `Bearer ${served.apiKey}` } }).then((r) => r.json())) as {
      data: { result: { ai: { action: string; citations: { seconds: number }[] } } | null }[];
    };
    const cited = jobs.data.find((j) => j.result?.ai.action === 'chapters')!.result!.ai.citations;
    const last = cited[cited.length - 1]!;
    await cites.nth(cited.length - 1).click();
    await expect.poll(() => page.evaluate(() => document.querySelector<HTMLAudioElement>('#panel-transcribe audio')?.currentTime ?? -1)).toBeGreaterThanOrEqual(last.seconds - 0.05);
    expect(await page.evaluate(() => document.querySelector<HTMLAudioElement>('#panel-transcribe audio')?.currentTime ?? -1)).toBeLessThan(last.seconds + 3);
    mkdirSync(join(ROOT, 'test-artifacts', 'screenshots'), { recursive: true });
    await ai.screenshot({ path: join(ROOT, 'test-artifacts', 'screenshots', 'ai-panel.png') });

    // The summary's words are found by the library search, labelled as an AI answer; Enter opens the transcript on
    // the Jobs tab with its AI panel on that summary.
    await page.keyboard.press('Control+k');
    const box = page.getByRole('combobox', { name: 'Search every transcript' });
    await box.fill('"other way round"');
    const options = page.getByRole('listbox', { name: 'Results' }).getByRole('option');
    await expect.poll(() => options.count(), { timeout: scaled(10_000) }).toBe(1);
    expect(await options.first().locator('[data-testid="search-hit-ai"]').innerText()).toBe('AI · Summary');
    expect(await options.first().locator('mark').innerText()).toMatch(/other way round/i);
    await page.screenshot({ path: join(ROOT, 'test-artifacts', 'screenshots', 'library-search-ai.png') });
    await box.press('Enter');
    await expect.poll(() => page.getAttribute('#tab-jobs', 'aria-selected')).toBe('true');
    const opened = page.locator('#panel-jobs [data-testid="ai-panel"] [data-testid="ai-result"].focused');
    await expect.poll(() => opened.count(), { timeout: scaled(20_000) }).toBe(1);
    expect(await opened.innerText()).toContain('not the other way round');
    expect(await opened.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(pageErrors).toEqual([]);
  });
});
