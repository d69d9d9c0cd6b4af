/**
 * Dictation as a new user would try it, in Debian's Chromium against a real `voxdesk serve --ui`: the fake
 * microphone plays jfk.wav; on the Live tab, Dictate with PocketSphinx (Silero VAD installed) turns grey partials into
 * final text holding the reference's words; Stop saves the dictation, which appears in Jobs with its audio and exports
 * as SRT. The hotkey starts dictating from another tab.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../src-main/common/api-types.js';
import { installSileroVad, JFK_TEXT, JFK_WAV, wordsOf } from '../helpers/dictation-fixtures.js';
import { requireFile } from '../helpers/system.js';
import { fakeMicrophoneFlags, launchChromium } from './chromium.js';
import { ROOT, startServeUi, type ServedUi } from './serve-ui.js';

const SHOTS = join(ROOT, 'test-artifacts', 'screenshots');
let served: ServedUi;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
const pageErrors: string[] = [];

async function finalText(): Promise<string> {
  const texts = await page.locator('[data-testid="dictate-transcript"] span[data-final="true"]').allInnerTexts();
  return texts.join(' ');
}

describe('dictation in Chromium with a fake microphone (browser mode)', () => {
  beforeAll(async () => {
    requireFile('/usr/share/pocketsphinx/model/en-us/en-us/mdef', 'pocketsphinx-en-us');
    mkdirSync(SHOTS, { recursive: true });
    served = await startServeUi();
    await installSileroVad(served.url, served.apiKey);
    browser = await launchChromium(fakeMicrophoneFlags(JFK_WAV));
    page = await browser.context.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
    await page.goto(served.loginUrl);
    await page.getByRole('tab', { name: /Transcribe/ }).waitFor();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
  });

  it('dictates jfk.wav: grey partials turn into final text with the reference\'s words; the job is in Jobs with audio and SRT', { timeout: 240_000 }, async () => {
    await page.keyboard.press('Control+3');
    const panel = page.locator('#panel-live');
    await panel.getByRole('button', { name: 'Dictate' }).click();
    await expect.poll(() => panel.locator('#dictate-model').inputValue()).toBe('pocketsphinx-en-us');
    await panel.getByRole('button', { name: /Start dictation/ }).click();
    await panel.getByRole('button', { name: /Stop/ }).waitFor({ timeout: 30_000 });
    // The microphone list is filled in once the microphone is allowed.
    await expect.poll(() => panel.locator('#dictate-mic option').allInnerTexts()).toContainEqual(expect.stringMatching(/Fake/));
    await expect.poll(() => panel.getByRole('meter').getAttribute('aria-valuenow'), { timeout: 10_000 }).not.toBe('0');
    // jfk.wav is 11 s: finals arrive while it plays.
    await expect.poll(finalText, { timeout: 60_000 }).toMatch(/\w+/);
    await page.screenshot({ path: join(SHOTS, 'dictate.png'), fullPage: true });
    await expect.poll(async () => Number(await panel.getByTestId('dictate-seconds').innerText().then((t) => t.replace(' s', ''))), { timeout: 60_000 }).toBeGreaterThan(12.5);
    await panel.getByRole('button', { name: /Stop/ }).click();
    await panel.getByTestId('dictate-job').waitFor({ timeout: 60_000 });
    await expect.poll(() => panel.locator('[data-testid="dictate-transcript"] span[data-final="false"]').count()).toBe(0);
    const said = new Set(wordsOf(await finalText()));
    const reference = wordsOf(JFK_TEXT);
    // PocketSphinx after Chromium's capture path (about 50% WER on read speech, docs/design.md §7): most words.
    expect(reference.filter((w) => said.has(w)).length / reference.length, `dictated: ${await finalText()}`).toBeGreaterThanOrEqual(0.5);
    await page.screenshot({ path: join(SHOTS, 'dictate-done.png'), fullPage: true });

    // The dictation is a job: in Jobs, with its audio, exported as SRT.
    await page.keyboard.press('Control+4');
    const jobs = page.locator('#panel-jobs');
    const row = jobs.locator('tr', { hasText: /Dictation/ }).first();
    await row.waitFor({ timeout: 30_000 });
    await row.getByRole('button', { name: 'Open' }).click();
    const opened = jobs.getByLabel('Opened job');
    await opened.locator('audio').waitFor();
    const src = (await opened.locator('audio').getAttribute('src'))!;
    const audio = await page.evaluate(async (url) => (await fetch(url)).status, src);
    expect(audio).toBe(200);
    const download = page.waitForEvent('download');
    await opened.getByRole('button', { name: 'Export SRT' }).click();
    const srt = await (await download).path();
    expect(srt).toBeTruthy();
    const list = (await (await fetch(`${served.url}/v1/jobs?product=speech-to-text`, { headers: { authorization: `Bearer ${served.apiKey}` } })).json()) as { data: Job[] };
    const job = list.data.find((j) => j.name?.startsWith('Dictation'))!;
    expect(Number(job.duration_seconds)).toBeGreaterThan(11);
    const exported = await (await fetch(`${served.url}/v1/speech-to-text/${job.id}/export?format=srt`, { headers: { authorization: `Bearer ${served.apiKey}` } })).text();
    expect(exported).toMatch(/^1\n00:00:0\d,\d{3} --> /);
    await page.screenshot({ path: join(SHOTS, 'dictate-job.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  it('Ctrl+Shift+Space starts dictating from another tab and stops it again', { timeout: 120_000 }, async () => {
    await page.keyboard.press('Control+1');
    await page.keyboard.press('Control+Shift+Space');
    const panel = page.locator('#panel-live');
    await panel.getByRole('button', { name: /Stop/ }).waitFor({ timeout: 30_000 });
    await page.keyboard.press('Control+Shift+Space');
    await panel.getByRole('button', { name: /Start dictation/ }).waitFor({ timeout: 60_000 });
  });
});
