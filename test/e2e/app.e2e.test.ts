/**
 * The renderer end to end in Debian's Chromium against a real `voxdesk serve --ui`: transcribe jfk.wav with
 * PocketSphinx (upload → progress → transcript → SRT download), speak and play, live preview through Web Audio,
 * jobs, models, settings, and axe-core on every tab in both themes (no serious or critical violation).
 * Screenshots of every tab go to test-artifacts/screenshots/.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireCommand, requireFile, SHARED } from '../helpers/system.js';
import { describeViolations, seriousViolations } from './axe.js';
import { launchChromium } from './chromium.js';
import { ROOT, startServeUi, type ServedUi } from './serve-ui.js';
import { openLoggedInPage, type Chromium } from './logged-in-page.js';
import { scaled } from '../helpers/time-scale.js';

const SHOTS = join(ROOT, 'test-artifacts', 'screenshots');
let served: ServedUi;
let browser: Chromium;
let page: Page;
const pageErrors: string[] = [];
/** The page carries the service's CSP header and its own meta CSP: neither may refuse anything the app does. */
const cspViolations: string[] = [];

async function openTab(name: string, key: number): Promise<void> {
  await page.keyboard.press(`Control+${key}`);
  await expect.poll(() => page.getAttribute(`#tab-${name}`, 'aria-selected')).toBe('true');
}

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

describe('desktop UI in Chromium (browser mode)', () => {
  beforeAll(async () => {
    requireCommand('pocketsphinx_batch', 'pocketsphinx');
    requireFile('/usr/share/pocketsphinx/model/en-us/en-us', 'pocketsphinx-en-us');
    mkdirSync(SHOTS, { recursive: true });
    served = await startServeUi();
    const watchCsp = (opened: Page): void => {
      opened.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
      });
    };
    ({ browser, page } = await openLoggedInPage(served, pageErrors, { beforeLogin: watchCsp }));
  });

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
  });

  it('logs in from the printed address: the token leaves the address bar, a reload stays in, another browser is asked for it', async () => {
    expect(page.url()).toBe(`${served.url}/`);
    await page.reload();
    await page.getByRole('tab', { name: /Transcribe/ }).waitFor();
    const other = await launchChromium();
    try {
      const stranger = await other.context.newPage();
      for (const address of [served.url, served.loginUrl]) {
        await stranger.goto(address);
        await expect.poll(() => stranger.getByRole('alert').innerText()).toMatch(/not logged in.*voxdesk serve --ui/s);
      }
      await stranger.screenshot({ path: join(SHOTS, 'login-required.png') });
    } finally {
      await other.close();
    }
  });

  it('lists the catalogue with availability and prices on Models', async () => {
    await openTab('models', 5);
    const panel = page.locator('#panel-models');
    await expect.poll(() => panel.locator('tr[data-model]').count()).toBeGreaterThan(1);
    await expect.poll(() => panel.locator('tr[data-model="espeak-ng"]').innerText()).toMatch(/Ready/);
    await expect.poll(() => panel.innerText()).toMatch(/Speech recognition/);
    await shot('models');
  });

  it('transcribes jfk.wav end to end and exports SRT', async () => {
    await openTab('transcribe', 1);
    const panel = page.locator('#panel-transcribe');
    const picker = panel.locator('#asr-model');
    await expect.poll(() => picker.locator('option').allInnerTexts()).toEqual(expect.arrayContaining([expect.stringMatching(/PocketSphinx/i)]));
    const pocketsphinx = await picker.locator('option', { hasText: /PocketSphinx/i }).first().getAttribute('value');
    await picker.selectOption(pocketsphinx!);
    await panel.locator('[data-testid="file-input"]').setInputFiles(join(SHARED, 'audio', 'jfk.wav'));
    // Progress: the row appears with a status chip before the transcript.
    await panel.locator('.list li').first().waitFor();
    await expect.poll(() => panel.locator('.list [data-status]').first().getAttribute('data-status'), { timeout: scaled(120_000) }).toBe('succeeded');
    const transcript = panel.locator('.transcript');
    await expect.poll(() => transcript.innerText(), { timeout: scaled(10_000) }).toMatch(/country/i);
    expect(await transcript.locator('.seg-text .word').count()).toBeGreaterThan(10);
    await panel.locator('input[type="search"]').fill('country');
    await expect.poll(() => transcript.locator('.seg.hit').count()).toBeGreaterThan(0);
    await shot('transcribe');

    const [download] = await Promise.all([page.waitForEvent('download'), transcript.getByRole('button', { name: 'Export SRT' }).click()]);
    expect(download.suggestedFilename()).toBe('jfk.srt');
    const srt = readFileSync((await download.path())!, 'utf8');
    expect(srt).toMatch(/^1\r?\n\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}/);
    expect(srt.toLowerCase()).toContain('country');
  }, scaled(240_000)); // its polls wait up to 120 s for PocketSphinx on a loaded machine: more than the default 60 s

  it('sends a dropped pair of files as one batch, and explains a file that is not audio', async () => {
    await openTab('transcribe', 1);
    const panel = page.locator('#panel-transcribe');
    const before = await panel.locator('.list li').count();
    const names = ['roots_02_morris_0219.wav', 'roots_04_morris_0400.wav'];
    const payload = names.map((name) => ({ name, b64: readFileSync(join(SHARED, 'audio', 'hifitts-6097', name)).toString('base64') }));
    // A real drop event carrying a DataTransfer, as the OS file manager would send it.
    await panel.locator('.drop').evaluate((zone, files) => {
      const data = new DataTransfer();
      for (const f of files) data.items.add(new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name, { type: 'audio/wav' }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    }, payload);
    const rows = panel.locator('.list li');
    await expect.poll(() => rows.count()).toBe(before + 2);
    // Two files went as ONE batch request (one connection, answered at once), not two held POSTs.
    // (The rows appear at the drop, before the upload ends: wait for the batch to exist.)
    const key = served.apiKey;
    type Batches = { data: { file_count: number; files: { name: string }[] }[] };
    const listBatches = async (): Promise<Batches> => (await (await fetch(`${served.url}/v1/batches`, { headers: { authorization: `Bearer ${key}` } })).json()) as Batches;
    await expect.poll(async () => (await listBatches()).data.length, { timeout: scaled(30_000) }).toBeGreaterThan(0);
    const batches = await listBatches();
    expect(batches.data).toHaveLength(1);
    expect(batches.data[0]!.files.map((f) => f.name)).toEqual(names);
    for (const i of [before, before + 1]) {
      await expect.poll(() => rows.nth(i).locator('[data-status]').getAttribute('data-status'), { timeout: scaled(120_000) }).toBe('succeeded');
    }

    await panel.locator('[data-testid="file-input"]').setInputFiles({ name: 'notes.wav', mimeType: 'audio/wav', buffer: Buffer.from('this is not audio at all') });
    await expect.poll(() => rows.count()).toBe(before + 3);
    const bad = rows.nth(before + 2);
    await expect.poll(() => bad.locator('[data-status]').getAttribute('data-status'), { timeout: scaled(60_000) }).toBe('failed');
    const why = await bad.innerText();
    expect(why).toMatch(/could not be decoded|cannot read|does not contain audio/i);
    expect(why).not.toMatch(/_/);
    await expect(bad.getByRole('button', { name: 'Retry' }).count()).resolves.toBe(1);
    await shot('transcribe-batch');
    // On a page longer than the window the sidebar still runs to its bottom (a full-page screenshot showed it end).
    const size = page.viewportSize()!;
    await page.setViewportSize({ width: size.width, height: 480 });
    const [sidebar, pageHeight, viewport] = await page.evaluate(() => [document.querySelector('nav.sidebar')!.getBoundingClientRect().height, document.documentElement.scrollHeight, innerHeight]);
    expect(pageHeight).toBeGreaterThan(viewport!);
    expect(sidebar).toBeGreaterThanOrEqual(pageHeight! - 1);
    await page.setViewportSize(size);
  }, scaled(300_000));

  it('speaks text with a voice from the catalogue and plays it', async () => {
    await openTab('speak', 2);
    const panel = page.locator('#panel-speak');
    await expect.poll(() => panel.locator('#tts-voice option').count()).toBeGreaterThan(10);
    await panel.locator('#tts-text').fill('Voxdesk speaks this sentence for the browser test.');
    await expect.poll(() => panel.getByTestId('cost-line').innerText()).toMatch(/Free|\$/);
    await page.keyboard.press('Control+Enter');
    const audio = panel.locator('audio').first();
    await audio.waitFor({ timeout: scaled(60_000) });
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => (a.readyState >= 1 ? a.duration : 0)), { timeout: scaled(20_000) }).toBeGreaterThan(1);
    await shot('speak');
  });

  it('speaks many lines as one batch with progress and a player per line', async () => {
    const panel = page.locator('#panel-speak');
    await panel.getByLabel('Batch: one file per line').check();
    await panel.locator('#tts-text').fill('First line of the batch.\n\nSecond line of the batch.\nThird.');
    await expect.poll(() => panel.getByRole('button', { name: /Speak 3 lines/ }).count()).toBe(1);
    await panel.getByRole('button', { name: /Speak 3 lines/ }).click();
    const batch = panel.locator('[aria-label="Batch"]');
    await expect.poll(() => batch.locator('li audio').count(), { timeout: scaled(60_000) }).toBe(3);
    await expect.poll(() => batch.innerText()).toMatch(/3 done · 0 failed · 0 left/);
    await expect.poll(() => batch.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    // A finished batch's bar is drawn full at once (not still easing towards it).
    const fill = await batch.getByRole('progressbar').evaluate((bar) => [bar.getBoundingClientRect().width, bar.firstElementChild!.getBoundingClientRect().width]);
    expect(fill[1]).toBeCloseTo(fill[0]!, 0);
    await shot('speak-batch');
    await panel.getByLabel('Batch: one file per line').uncheck();
  });

  it('previews live speech through Web Audio', async () => {
    await openTab('live', 3);
    const panel = page.locator('#panel-live');
    await panel.locator('#live-model').waitFor();
    await panel.locator('#live-text').pressSequentially('Hello from the live tab. ', { delay: 5 });
    const status = panel.locator('[data-testid="live-status"]');
    await expect
      .poll(async () => Number(await status.getAttribute('data-frames')), { timeout: scaled(30_000), message: await panel.innerText().catch(() => '') })
      .toBeGreaterThan(3)
      .catch(async (err: unknown) => {
        await shot('live-failed');
        throw new Error(`no live frames; panel says: ${await panel.innerText()}`, { cause: err });
      });
    await expect.poll(async () => Number(await status.getAttribute('data-scheduled')), { timeout: scaled(30_000) }).toBeGreaterThan(0.5);
    await shot('live');
  });

  it('shows the job history with plain statuses', async () => {
    await openTab('jobs', 4);
    const panel = page.locator('#panel-jobs');
    await expect.poll(() => panel.locator('tbody tr').count()).toBeGreaterThanOrEqual(2);
    await expect.poll(() => panel.innerText()).toMatch(/jfk\.wav/);
    await panel.getByRole('button', { name: 'Open' }).first().click();
    await panel.locator('[aria-label="Opened job"]').waitFor();
    await shot('jobs');
  });

  it('shows usage: totals, a chart per day and the monthly cap', async () => {
    await openTab('usage', 6);
    const panel = page.locator('#panel-usage');
    await expect.poll(() => panel.getByTestId('usage-total').innerText()).toMatch(/\$/);
    expect(await panel.locator('svg[role="img"] rect').count()).toBeGreaterThan(0);
    await expect.poll(() => panel.getByTestId('budget-remaining').innerText()).toBe('No cap');
    await shot('usage');
  });

  it('shows settings and switches the theme', async () => {
    await openTab('settings', 7);
    const panel = page.locator('#panel-settings');
    await panel.getByText('Data folder').waitFor();
    await panel.getByLabel('Dark').check();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await shot('settings-dark');
    await panel.getByLabel('Light').check();
    await shot('settings');
    for (const [tab, key] of [['transcribe', 1], ['models', 5]] as const) {
      await page.getByLabel('Dark').check().catch(() => undefined);
      await openTab(tab, key);
      await shot(`${tab}-dark`);
    }
    expect(pageErrors).toEqual([]);
  });

  it('has no serious or critical accessibility violation on any tab, light or dark, nor in the search dialog', async () => {
    const found: string[] = [];
    for (const theme of ['Light', 'Dark'] as const) {
      await openTab('settings', 7);
      await page.locator('#panel-settings').getByLabel(theme).check();
      for (const [tab, key] of [['transcribe', 1], ['speak', 2], ['live', 3], ['jobs', 4], ['models', 5], ['usage', 6], ['settings', 7], ['voices', 8]] as const) {
        await openTab(tab, key);
        await page.waitForTimeout(100); // transitions of the tab switch (colours are measured as drawn)
        const violations = await seriousViolations(page);
        if (violations.length) found.push(describeViolations(`${tab} (${theme.toLowerCase()})`, violations));
      }
      await page.keyboard.press('Control+k');
      await page.getByRole('combobox', { name: 'Search every transcript' }).waitFor();
      const inDialog = await seriousViolations(page);
      if (inDialog.length) found.push(describeViolations(`search dialog (${theme.toLowerCase()})`, inDialog));
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    }
    await page.locator('#panel-settings').getByLabel('Light').check().catch(() => undefined);
    expect(found.join('\n')).toBe('');
    // Every tab's title is its level-one heading.
    await openTab('jobs', 4);
    expect(await page.getByRole('heading', { level: 1 }).allInnerTexts()).toEqual(['Jobs']);
    await openTab('usage', 6);
    expect(await page.getByRole('heading', { level: 1 }).allInnerTexts()).toEqual(['Usage']);
  }, scaled(120_000)); // eight tabs in two themes, and the dialog: axe-core takes seconds a page on a busy machine

  it('changes retention in Settings, explains a bad value, and keeps the change after a reload', async () => {
    await openTab('settings', 7);
    const panel = page.locator('#panel-settings');
    const keepRecordings = panel.getByLabel('Keep each recording as long as its transcript');
    const hours = panel.getByLabel('Otherwise delete uploaded recordings after');
    const forever = panel.getByLabel('Keep the job history forever');
    const days = panel.getByLabel('Otherwise delete finished jobs after');
    const save = panel.getByRole('button', { name: 'Save retention' });
    // By default a recording stays as long as its transcript, and the disk the kept recordings take is shown.
    await expect.poll(() => keepRecordings.isChecked()).toBe(true);
    expect(await hours.isDisabled()).toBe(true);
    expect(await forever.isChecked()).toBe(true);
    expect(await days.isDisabled()).toBe(true);
    await expect.poll(() => panel.getByTestId('recordings-disk').innerText()).toMatch(/Kept recordings take \d+(\.\d)? (kB|MB) on disk/);
    expect(await panel.getByTestId('artifact-link-hours').innerText()).toMatch(/24 hours.*fixed/);

    await keepRecordings.uncheck();
    await hours.fill('0');
    await save.click();
    await expect.poll(() => panel.getByRole('alert').innerText()).toMatch(/whole number of hours between 1 and 8760/);

    await hours.fill('48');
    await forever.uncheck();
    await days.fill('30');
    await save.click();
    await expect.poll(() => panel.locator('#retention-status').innerText()).toMatch(/Saved\. Recordings are deleted 48 hours .* deleted 30 days after they finish/);
    expect(await panel.getByRole('alert').count()).toBe(0);
    await shot('settings-retention');

    await page.reload();
    await page.getByRole('tab', { name: /Transcribe/ }).waitFor();
    await openTab('settings', 7);
    await expect.poll(() => hours.inputValue()).toBe('48');
    expect(await keepRecordings.isChecked()).toBe(false);
    expect(await forever.isChecked()).toBe(false);
    expect(await days.inputValue()).toBe('30');

    await keepRecordings.check();
    await forever.check();
    await save.click();
    await expect.poll(() => panel.locator('#retention-status').innerText()).toMatch(/kept as long as their transcript; finished jobs are kept forever/);
    expect(pageErrors).toEqual([]);
    expect(cspViolations).toEqual([]);
  });
});
