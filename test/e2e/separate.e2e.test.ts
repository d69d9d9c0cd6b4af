/**
 * The Separate action as a person uses it, in Debian's Chromium against `voxdesk serve --ui`: with the tiny Spleeter
 * model imported (scripts/tiny-models/make_tiny_product_models.py), a song chosen on the Transcribe tab's Separate
 * card comes back as two stems, Vocals and Accompaniment, each with a player whose audio loads and a Download button;
 * axe-core finds no serious or critical violation on the tab with the stems shown.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeWav } from '../../src-main/engines/audio/wav.js';
import { generatedModel, PRODUCT_MODELS_SCRIPT } from '../helpers/generated-models.js';
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
  const r = await fetch(`${served.url}/v1/local/models/import`, { method: 'POST', headers, body: JSON.stringify({ path: generatedModel('spleeter-2stems', PRODUCT_MODELS_SCRIPT), id: 'tiny-spleeter' }) });
  expect(r.status, await r.clone().text()).toBe(202);
  for (let i = 0; i < 600; i++) {
    const { state } = (await (await fetch(`${served.url}/v1/local/models/tiny-spleeter`, { headers })).json()) as { state: string };
    if (state === 'installed') break;
    if (i === 599) throw new Error(`the tiny Spleeter import did not finish: ${state}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  ({ browser, page } = await openLoggedInPage(served, pageErrors));
}, scaled(180_000));

afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

function song(seconds: number): Buffer {
  const n = Math.round(seconds * 44100);
  const channel = (p: number) => Float32Array.from({ length: n }, (_, i) => 0.3 * Math.sin(i / p));
  return Buffer.from(encodeWav([channel(9), channel(13)], 44100));
}

describe('the Separate card', () => {
  it('splits a chosen song into Vocals and Accompaniment, each playable and downloadable', { timeout: scaled(120_000) }, async () => {
    const card = page.getByTestId('separate');
    await card.getByRole('heading', { name: 'Separate a song' }).waitFor();
    await card.getByLabel('Separation model').waitFor();
    await card.getByTestId('separate-file').setInputFiles({ name: 'my-song.wav', mimeType: 'audio/wav', buffer: song(2) });
    await card.getByRole('button', { name: 'Separate', exact: true }).click();
    const stems = card.getByTestId('separated-stem');
    await expect.poll(() => stems.count(), { timeout: scaled(60_000) }).toBe(2);
    expect(await stems.getByRole('heading').allTextContents()).toEqual(['Vocals', 'Accompaniment']);
    for (let i = 0; i < 2; i++) {
      const src = await stems.nth(i).locator('audio').getAttribute('src');
      const audio = await page.request.get(src!);
      expect(audio.status()).toBe(200);
      expect(audio.headers()['content-type']).toContain('audio/wav');
      await stems.nth(i).getByRole('button', { name: 'Download' }).waitFor();
    }
    expect(pageErrors).toEqual([]);
  });

  it('passes axe-core with the stems shown', async () => {
    const violations = await seriousViolations(page);
    expect(violations, describeViolations('the Transcribe tab with separated stems', violations)).toEqual([]);
  });
});
