/**
 * Issue 29 as a new user tries it in Debian's Chromium against a real `voxdesk serve --ui` with PocketSphinx: a
 * replacement saved in Settings → Vocabulary shows in the next transcript (and the engine's words stay in revision
 * 0); in the workbench, Shift+click selects sentences, the bar re-transcribes them with the chosen model, and the
 * transcript reloads with the new revision. axe-core checks the workbench with the bar open.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireCommand, requireFile, SHARED } from '../helpers/system.js';
import { describeViolations, seriousViolations } from './axe.js';
import { openLoggedInPage, type Chromium } from './logged-in-page.js';
import { startServeUi, type ServedUi } from './serve-ui.js';
import { scaled } from '../helpers/time-scale.js';

let served: ServedUi;
let browser: Chromium;
let page: Page;
const pageErrors: string[] = [];

async function api<T>(method: string, path: string): Promise<T> {
  const response = await fetch(`${served.url}${path}`, { method, headers: { authorization: `Bearer ${served.apiKey}` } });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

interface Transcript {
  revision: number;
  segments: { index: number; start: number; end: number; text: string }[];
}

describe('vocabulary and re-transcribing a range in Chromium (browser mode)', () => {
  beforeAll(async () => {
    requireCommand('pocketsphinx_batch', 'pocketsphinx');
    requireFile('/usr/share/pocketsphinx/model/en-us/en-us', 'pocketsphinx-en-us');
    served = await startServeUi();
    ({ browser, page } = await openLoggedInPage(served, pageErrors));
  });

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
  });

  it('a replacement saved in Settings shows in the next transcript; selected sentences are re-transcribed as a new revision', async () => {
    // Settings → Vocabulary: what PocketSphinx hears in jfk.wav ("… like your brain …") becomes "Voxdesk".
    await page.getByRole('tab', { name: /Settings/ }).click();
    const section = page.locator('[data-testid="vocabulary-settings"]');
    await section.scrollIntoViewIfNeeded();
    const save = section.getByRole('button', { name: /Save vocabulary/ });
    await expect.poll(() => save.isEnabled()).toBe(true);
    await section.locator('[data-testid="vocabulary-replacements"]').fill('no separator here');
    await save.click();
    await expect.poll(() => section.locator('[role="alert"]').innerText()).toMatch(/line 1 needs the form/);
    await section.locator('[data-testid="vocabulary-replacements"]').fill('your brain => Voxdesk');
    await section.locator('[data-testid="vocabulary-hotwords"]').fill('Voxdesk');
    await save.click();
    await expect.poll(() => section.locator('#vocabulary-status').innerText()).toMatch(/1 word to favour, 1 replacement/);
    expect(await api('GET', '/v1/vocabulary')).toEqual({ hotwords: ['Voxdesk'], replacements: [{ from: 'your brain', to: 'Voxdesk' }] });

    // Transcribe jfk.wav with PocketSphinx and open it: the replacement is there.
    await page.getByRole('tab', { name: /Transcribe/ }).click();
    const panel = page.locator('#panel-transcribe');
    const picker = panel.locator('#asr-model');
    await expect.poll(() => picker.locator('option').allInnerTexts()).toEqual(expect.arrayContaining([expect.stringMatching(/PocketSphinx/i)]));
    await picker.selectOption((await picker.locator('option', { hasText: /PocketSphinx/i }).first().getAttribute('value'))!);
    await panel.locator('[data-testid="file-input"]').setInputFiles([join(SHARED, 'audio', 'jfk.wav')]);
    const row = panel.locator('.list li').first();
    await expect.poll(() => row.locator('[data-status]').getAttribute('data-status'), { timeout: scaled(180_000) }).toBe('succeeded');
    await row.getByRole('button').first().click();
    const transcript = panel.locator('.transcript');
    await expect.poll(() => transcript.innerText(), { timeout: scaled(20_000) }).toMatch(/Voxdesk/);
    const jobs = await api<{ data: { id: string; name: string }[] }>('GET', '/v1/jobs?product=speech-to-text');
    const jobId = jobs.data.find((j) => j.name === 'jfk.wav')!.id;
    const before = await api<Transcript>('GET', `/v1/speech-to-text/${jobId}/transcript`);
    expect(before.revision).toBe(1);
    expect((await api<Transcript>('GET', `/v1/speech-to-text/${jobId}/transcript?revision=0`)).segments.map((s) => s.text).join(' ')).toMatch(/your brain/);
    expect(before.segments.length).toBeGreaterThanOrEqual(2);

    // Click the first sentence (it opens for editing), Esc, then Shift+click the last: both and all between are selected.
    const first = before.segments[0]!;
    const last = before.segments.at(-1)!;
    await transcript.locator(`[data-segment="${first.index}"] .seg-text`).click();
    await transcript.locator(`[data-segment="${first.index}"] textarea`).press('Escape');
    await transcript.locator(`[data-segment="${last.index}"] .seg-text`).click({ modifiers: ['Shift'] });
    const bar = transcript.locator('[data-testid="retranscribe-bar"]');
    await expect.poll(() => bar.isVisible()).toBe(true);
    expect(await bar.innerText()).toMatch(new RegExp(`${before.segments.length} sentences selected`));
    expect(await transcript.locator('.seg.selected').count()).toBe(before.segments.length);
    expect(await transcript.locator('textarea').count()).toBe(0);
    const violations = await seriousViolations(page);
    expect(violations, describeViolations('the workbench with the re-transcribe bar', violations)).toEqual([]);

    // Esc clears the selection; select again and re-transcribe with PocketSphinx.
    await transcript.locator(`[data-segment="${last.index}"] .seg-text`).press('Escape');
    await expect.poll(() => bar.count()).toBe(0);
    await transcript.locator(`[data-segment="${first.index}"] .seg-text`).click({ modifiers: ['Shift'] });
    await transcript.locator(`[data-segment="${last.index}"] .seg-text`).click({ modifiers: ['Shift'] });
    const rangePicker = bar.locator('#range-model');
    await rangePicker.selectOption((await rangePicker.locator('option', { hasText: /PocketSphinx/i }).first().getAttribute('value'))!);
    await bar.getByRole('button', { name: /^Re-transcribe$/ }).click();
    await expect.poll(async () => (await api<Transcript>('GET', `/v1/speech-to-text/${jobId}/transcript`)).revision, { timeout: scaled(180_000) }).toBe(2);
    await expect.poll(() => bar.count(), { timeout: scaled(20_000) }).toBe(0);
    // The view reloaded with the new revision: its words are revision 2's.
    await expect.poll(() => transcript.locator('[data-testid="revision"]').innerText()).toMatch(/Revision 2/);
    const after = await api<Transcript>('GET', `/v1/speech-to-text/${jobId}/transcript`);
    for (const segment of after.segments.filter((s) => s.text)) {
      expect(await transcript.locator(`[data-segment="${segment.index}"]`).innerText()).toBe(segment.text);
    }
    expect(pageErrors).toEqual([]);
  }, scaled(400_000));
});
