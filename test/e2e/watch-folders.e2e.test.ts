/**
 * The Settings tab's watch folders in Debian's Chromium against a real `voxdesk serve --ui`: a relative path is
 * explained before anything is sent, a folder that does not exist is saved with its error shown, a real folder with a
 * recording in it is watched, the recording is transcribed with PocketSphinx and its SRT appears beside it, and
 * removing a folder stops watching it.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireCommand, requireFile, SHARED } from '../helpers/system.js';
import { ROOT, startServeUi, type ServedUi } from './serve-ui.js';
import { openLoggedInPage, type Chromium } from './logged-in-page.js';
import { scaled } from '../helpers/time-scale.js';

const SHOTS = join(ROOT, 'test-artifacts', 'screenshots');
let served: ServedUi;
let browser: Chromium;
let page: Page;
let work: string;
const pageErrors: string[] = [];

describe('watch folders in Settings (browser mode)', () => {
  beforeAll(async () => {
    requireCommand('pocketsphinx_batch', 'pocketsphinx');
    requireFile('/usr/share/pocketsphinx/model/en-us/en-us', 'pocketsphinx-en-us');
    mkdirSync(SHOTS, { recursive: true });
    work = mkdtempSync(join(tmpdir(), 'voxdesk-watch-e2e-'));
    served = await startServeUi();
    ({ browser, page } = await openLoggedInPage(served, pageErrors));
  });

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('adds a folder by path, shows its status, transcribes what is in it and writes the SRT beside it', async () => {
    await page.keyboard.press('Control+7');
    await expect.poll(() => page.getAttribute('#tab-settings', 'aria-selected')).toBe('true');
    const section = page.getByTestId('watch-folders');
    await expect.poll(() => section.innerText()).toMatch(/No folder is watched/);
    const path = section.getByLabel('Folder to watch');
    const add = section.getByRole('button', { name: 'Add folder' });
    await expect.poll(() => section.locator('#watch-model option').count()).toBeGreaterThan(0);

    // Explained before anything is sent.
    await path.fill('Recordings');
    await add.click();
    await expect.poll(() => section.getByRole('alert').innerText()).toMatch(/must be a full path/);

    // A folder that is not there: refused with the path named (a typo is not "added"), nothing saved.
    const typo = join(work, 'Recrodings');
    await path.fill(typo);
    await add.click();
    await expect.poll(() => section.getByRole('alert').innerText()).toMatch(new RegExp(`There is no folder ${typo}\\. Check the path`));
    await expect.poll(() => section.innerText()).toMatch(/No folder is watched/);

    // A folder saved while it existed and then gone (a recorder unplugged): kept, with the problem shown.
    const later = join(work, 'recorder');
    mkdirSync(later);
    await path.fill(later);
    await add.click();
    const laterRow = section.locator(`li[data-path="${later}"]`);
    await expect.poll(() => laterRow.getByTestId('watch-state').innerText(), { timeout: scaled(30_000) }).toBe('Watching');
    rmSync(later, { recursive: true });
    await expect.poll(() => laterRow.getByTestId('watch-state').innerText(), { timeout: scaled(30_000) }).toBe('Problem');
    await expect.poll(() => laterRow.getByTestId('watch-error').innerText()).toMatch(/does not exist: it was deleted or renamed.* Trying again at/);

    // A real folder with a recording made while nothing watched it.
    const inbox = join(work, 'Recorder inbox');
    mkdirSync(inbox);
    copyFileSync(join(SHARED, 'audio', 'jfk.wav'), join(inbox, 'jfk.wav'));
    await path.fill(inbox);
    await section.getByLabel('TXT').uncheck();
    await add.click();
    const row = section.locator(`li[data-path="${inbox}"]`);
    await expect.poll(() => row.innerText()).toMatch(/SRT · beside each recording/);
    await expect.poll(() => row.getByTestId('watch-state').innerText(), { timeout: scaled(30_000) }).toBe('Watching');
    await expect.poll(() => row.getByTestId('watch-counts').innerText(), { timeout: scaled(180_000), interval: 1000 }).toMatch(/^1 done/);
    expect(readFileSync(join(inbox, 'jfk.srt'), 'utf8').toLowerCase()).toContain('country');
    expect(existsSync(join(inbox, 'jfk.txt'))).toBe(false);
    await page.screenshot({ path: join(SHOTS, 'settings-watch-folders.png'), fullPage: true });

    // The list survives a reload; removing a folder stops watching it.
    await page.reload();
    await page.getByRole('tab', { name: /Settings/ }).click();
    await expect.poll(() => section.locator('li[data-path]').count(), { timeout: scaled(15_000) }).toBe(2);
    await section.getByRole('button', { name: `Stop watching ${later}`, exact: true }).click();
    await expect.poll(() => section.locator('li[data-path]').count()).toBe(1);
    const listed = (await (await fetch(`${served.url}/v1/settings/watch-folders`, { headers: { authorization: `Bearer ${served.apiKey}` } })).json()) as { folders: { path: string }[] };
    expect(listed.folders.map((f) => f.path)).toEqual([inbox]);
    expect(pageErrors).toEqual([]);
  }, scaled(240_000));
});
