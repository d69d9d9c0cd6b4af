/**
 * The interface in German and Spanish (issue 35.7), in Chromium against a real `voxdesk serve --ui` with some work
 * done (a transcription, a speech job, their charges): a browser that prefers German opens in German; every tab is
 * photographed in German at the usual window size and at 800×600, and nothing is clipped, runs out of its card or
 * lies on top of another control (layout-check.ts); switching to Spanish in Settings relabels the page at once; and
 * axe-core finds no serious or critical violation on any tab in English, German or Spanish.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireCommand, SHARED } from '../helpers/system.js';
import { describeViolations, seriousViolations } from './axe.js';
import { layoutProblems } from './layout-check.js';
import { openLoggedInPage, type Chromium } from './logged-in-page.js';
import { ROOT, startServeUi, type ServedUi } from './serve-ui.js';
import { scaled } from '../helpers/time-scale.js';

const SHOTS = join(ROOT, 'test-artifacts', 'screenshots');
const TABS = [['transcribe', 1], ['speak', 2], ['live', 3], ['jobs', 4], ['models', 5], ['usage', 6], ['settings', 7], ['voices', 8]] as const;
let served: ServedUi;
let browser: Chromium;
let page: Page;
const pageErrors: string[] = [];

async function openTab(name: string, key: number): Promise<void> {
  await page.keyboard.press(`Control+${key}`);
  await expect.poll(() => page.getAttribute(`#tab-${name}`, 'aria-selected')).toBe('true');
  await page.waitForTimeout(150); // the tab's first drawing and its transitions
}

/** Every tab photographed and checked for clipped, escaping or overlapping elements. */
async function checkEveryTab(prefix: string): Promise<string[]> {
  const found: string[] = [];
  for (const [tab, key] of TABS) {
    await openTab(tab, key);
    if (tab === 'usage') await page.locator('#panel-usage').getByTestId('usage-total').waitFor();
    await page.screenshot({ path: join(SHOTS, `${prefix}-${tab}.png`), fullPage: true });
    for (const problem of await layoutProblems(page, `nav.sidebar, #panel-${tab}`)) found.push(`${prefix} ${tab}: ${problem}`);
  }
  return found;
}

async function axeOnEveryTab(locale: string): Promise<string[]> {
  const found: string[] = [];
  for (const [tab, key] of TABS) {
    await openTab(tab, key);
    const violations = await seriousViolations(page);
    if (violations.length) found.push(describeViolations(`${tab} (${locale})`, violations));
  }
  return found;
}

describe('the interface in German and Spanish (browser mode)', () => {
  beforeAll(async () => {
    requireCommand('pocketsphinx_batch', 'pocketsphinx');
    mkdirSync(SHOTS, { recursive: true });
    served = await startServeUi({ pricing: { models: { 'pocketsphinx-en-us': { request_fee_usd: 0.01, per_minute_usd: 0.006 } } } });
    ({ browser, page } = await openLoggedInPage(served, pageErrors, { locale: 'de-DE' }));
  });

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
  });

  it('opens in the browser’s language, German, and works in it', async () => {
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    expect(await page.locator('nav.sidebar [role="tab"] .label').allInnerTexts()).toEqual(['Transkribieren', 'Sprechen', 'Stimmen', 'Live', 'Aufträge', 'Modelle', 'Verbrauch', 'Einstellungen']);
    // Some work, so the tabs show lists, a transcript, charges and a chart.
    await page.keyboard.press('Control+1');
    const panel = page.locator('#panel-transcribe');
    await panel.locator('[data-testid="file-input"]').setInputFiles({ name: 'interview.wav', mimeType: 'audio/wav', buffer: readFileSync(join(SHARED, 'audio', 'jfk.wav')) });
    await expect.poll(() => panel.locator('.list [data-status]').first().getAttribute('data-status'), { timeout: scaled(120_000) }).toBe('succeeded');
    await panel.locator('.transcript').waitFor();
    expect(await panel.locator('.list [data-status]').first().innerText()).toBe('Fertig');
    await page.keyboard.press('Control+2');
    await page.locator('#tts-text').fill('Guten Tag, das ist ein Test.');
    await page.keyboard.press('Control+Enter');
    await page.locator('#panel-speak audio').first().waitFor({ timeout: scaled(60_000) });
  }, scaled(240_000));

  it('shows every tab in German with nothing clipped, out of its card or overlapping — at 1280×860 and at 800×600', async () => {
    const found = await checkEveryTab('de');
    await page.setViewportSize({ width: 800, height: 600 });
    try {
      found.push(...(await checkEveryTab('de-800x600')));
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
    expect(found).toEqual([]);
  }, scaled(120_000));

  it('relabels the page at once when Spanish is chosen in Settings, and keeps it across a reload', async () => {
    await openTab('settings', 7);
    await page.locator('#language').selectOption('es');
    await expect.poll(() => page.locator('#panel-settings h1').innerText()).toBe('Ajustes');
    expect(await page.locator('nav.sidebar [role="tab"] .label').allInnerTexts()).toEqual(['Transcribir', 'Locutar', 'Voces', 'En directo', 'Trabajos', 'Modelos', 'Consumo', 'Ajustes']);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
    await openTab('jobs', 4);
    expect(await page.locator('#panel-jobs thead').innerText()).toMatch(/NOMBRE[\s\S]*TIPO[\s\S]*ESTADO/i);
    expect(await page.locator('#panel-jobs tbody').innerText()).toMatch(/Transcripción[\s\S]*Hecho/);
    await page.reload();
    await page.getByRole('tab', { name: /Trabajos/ }).waitFor();
    expect(await checkEveryTab('es')).toEqual([]);
  }, scaled(120_000));

  it('has no serious or critical accessibility violation on any tab in English, German or Spanish', async () => {
    const found: string[] = [];
    for (const [locale, heading] of [['en', 'Settings'], ['de', 'Einstellungen'], ['es', 'Ajustes']] as const) {
      await openTab('settings', 7);
      await page.locator('#language').selectOption(locale);
      await expect.poll(() => page.locator('#panel-settings h1').innerText()).toBe(heading);
      found.push(...(await axeOnEveryTab(locale)));
    }
    expect(found.join('\n')).toBe('');
    expect(pageErrors).toEqual([]);
  }, scaled(180_000));
});
