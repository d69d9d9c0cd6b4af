/**
 * The Voices tab as a person uses it, in Debian's Chromium against `voxdesk serve --ui`, with the tiny Kokoro v0.19
 * (../shared/models/tiny/tiny-kokoro) imported: a voice designed from a description, its preview played, saved under
 * a name, listed; then offered in the Speak tab's voice list on that model, where it speaks (the job's result names
 * the saved voice), and in the Live tab's voice list. axe-core finds no serious or critical violation on the tab. A
 * cloned voice the account saved is offered with a tiny ZipVoice (scripts/tiny-models) in the Speak tab, where the
 * text is spoken through voice-cloning in it, and in the Live tab's voice list under that model, where it speaks live.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../src-main/common/api-types.js';
import { generatedModel, PRODUCT_MODELS_SCRIPT } from '../helpers/generated-models.js';
import { SHARED } from '../helpers/system.js';
import { TINY } from '../helpers/tiny-archives.js';
import { describeViolations, seriousViolations } from './axe.js';
import { openLoggedInPage, type Chromium } from './logged-in-page.js';
import { startServeUi, type ServedUi } from './serve-ui.js';
import { scaled } from '../helpers/time-scale.js';

let served: ServedUi;
let browser: Chromium;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  served = await startServeUi();
  const headers = { authorization: `Bearer ${served.apiKey}`, 'content-type': 'application/json' };
  for (const [id, path] of [['tiny-kokoro', join(TINY, 'tiny-kokoro')], ['tiny-zipvoice', generatedModel('zipvoice-distill', PRODUCT_MODELS_SCRIPT)]] as const) {
    const r = await fetch(`${served.url}/v1/local/models/import`, { method: 'POST', headers, body: JSON.stringify({ path, id }) });
    expect(r.status, await r.clone().text()).toBe(202);
    for (let i = 0; i < 600; i++) {
      const { state } = (await (await fetch(`${served.url}/v1/local/models/${id}`, { headers })).json()) as { state: string };
      if (state === 'installed') break;
      if (i === 599) throw new Error(`the import of ${id} did not finish: ${state}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  ({ browser, page } = await openLoggedInPage(served, pageErrors));
}, scaled(180_000));

afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

describe('the Voices tab', () => {
  it('designs a voice, plays the preview, saves it, and the Speak tab offers it and speaks with it', { timeout: scaled(180_000) }, async () => {
    await page.keyboard.press('Control+8');
    await expect.poll(() => page.getAttribute('#tab-voices', 'aria-selected')).toBe('true');
    const panel = page.locator('#panel-voices');
    await expect.poll(() => panel.locator('#design-model option').count(), { timeout: scaled(30_000) }).toBeGreaterThan(0);
    await panel.getByLabel('Description').fill('a calm British woman');
    await panel.getByLabel('Pace').selectOption('slow');
    await panel.getByRole('button', { name: 'Preview', exact: true }).click();
    const preview = panel.getByTestId('design-preview');
    await preview.waitFor({ timeout: scaled(60_000) });
    const audio = preview.locator('audio');
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime > 0 || a.ended), { timeout: scaled(20_000) }).toBe(true);
    await expect.poll(() => preview.innerText()).toMatch(/bf_/);
    expect(await preview.innerText()).toContain('calm');

    await panel.getByLabel('Name', { exact: true }).first().fill('Narrator');
    await panel.getByRole('button', { name: 'Save voice' }).click();
    await expect.poll(() => panel.getByRole('status').first().innerText(), { timeout: scaled(60_000) }).toContain('Narrator');
    await expect.poll(() => panel.getByTestId('saved-voice').count()).toBe(1);
    expect(await panel.getByTestId('saved-voice').innerText()).toContain('Narrator');
    const violations = await seriousViolations(page);
    expect(violations, describeViolations('the Voices tab', violations)).toEqual([]);

    await page.keyboard.press('Control+2');
    const speak = page.locator('#panel-speak');
    await speak.locator('#tts-model').selectOption('tiny-kokoro');
    await expect.poll(() => speak.locator('#tts-voice option').allTextContents(), { timeout: scaled(20_000) }).toContain('Narrator (saved voice)');
    await speak.locator('#tts-voice').selectOption({ label: 'Narrator (saved voice)' });
    await speak.locator('#tts-text').fill('hello world');
    await page.keyboard.press('Control+Enter');
    const spoken = speak.locator('audio').first();
    await spoken.waitFor({ timeout: scaled(60_000) });
    const headers = { authorization: `Bearer ${served.apiKey}` };
    const { data } = (await (await fetch(`${served.url}/v1/jobs?limit=5`, { headers })).json()) as { data: Job[] };
    const job = data.find((j) => j.product === 'text-to-speech');
    expect(job?.result?.designed_voice?.saved_voice?.name).toBe('Narrator');

    // The Live tab's voice list offers it too.
    await page.keyboard.press('Control+3');
    const livePanel = page.locator('#panel-live');
    await livePanel.locator('#live-model').selectOption('tiny-kokoro');
    await expect.poll(() => livePanel.locator('#live-voice option').allTextContents(), { timeout: scaled(20_000) }).toContain('Narrator (saved voice)');
    expect(pageErrors).toEqual([]);
  });

  it('speaks a text in a cloned voice the account saved, from the Speak tab', { timeout: scaled(180_000) }, async () => {
    const headers = { authorization: `Bearer ${served.apiKey}` };
    const form = new FormData();
    form.append('name', 'Anna');
    form.append('reference_text', 'and so my fellow americans ask not what your country can do for you');
    form.append('audio', new Blob([readFileSync(join(SHARED, 'audio', 'jfk.wav'))]), 'anna.wav');
    const saved = await fetch(`${served.url}/v1/voices`, { method: 'POST', headers, body: form });
    expect(saved.status, await saved.clone().text()).toBeLessThan(300);

    await page.keyboard.press('Control+2');
    const speak = page.locator('#panel-speak');
    await expect.poll(() => speak.locator('#tts-model option').evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value)), { timeout: scaled(20_000) }).toContain('tiny-zipvoice');
    await speak.locator('#tts-model').selectOption('tiny-zipvoice');
    await expect.poll(() => speak.locator('#tts-voice option').allTextContents(), { timeout: scaled(20_000) }).toEqual(['Anna (cloned voice)']);
    await speak.locator('#tts-text').fill('A paragraph read in the voice of the saved recording.');
    await page.keyboard.press('Control+Enter');
    await speak.locator('audio').first().waitFor({ timeout: scaled(60_000) }).catch(async (error: Error) => {
      const { data: jobs } = (await (await fetch(`${served.url}/v1/jobs?limit=5`, { headers })).json()) as { data: Job[] };
      throw new Error(`${error.message}\n${await speak.innerText()}\n${JSON.stringify(jobs.map((j) => [j.product, j.status, j.error_message]))}`);
    });
    const { data } = (await (await fetch(`${served.url}/v1/jobs?limit=5`, { headers })).json()) as { data: Job[] };
    const job = data.find((j) => j.product === 'voice-cloning');
    expect(job).toMatchObject({ status: 'succeeded', result: { synthetic: true } });
    expect(pageErrors).toEqual([]);
  });

  it('speaks live in the saved cloned voice, picked in the Live tab under the voice-cloning model', { timeout: scaled(180_000) }, async () => {
    await page.keyboard.press('Control+3');
    const livePanel = page.locator('#panel-live');
    await livePanel.getByRole('button', { name: 'Speak' }).first().click();
    await expect.poll(() => livePanel.locator('#live-model option').evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value)), { timeout: scaled(20_000) }).toContain('tiny-zipvoice');
    await livePanel.locator('#live-model').selectOption('tiny-zipvoice');
    await expect.poll(() => livePanel.locator('#live-voice option').allTextContents(), { timeout: scaled(20_000) }).toEqual(['Anna (cloned voice)']);
    await livePanel.locator('#live-text').fill('Hello there. How are you today?');
    await livePanel.getByRole('button', { name: /^Speak/ }).last().click();
    await expect.poll(async () => Number(await livePanel.getByTestId('live-status').getAttribute('data-frames')), { timeout: scaled(120_000) }).toBeGreaterThan(0);
    expect(await livePanel.getByRole('alert').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
