/**
 * What a new user hit in browser mode (issue 35.8), each tried again in Chromium against a real `voxdesk serve --ui`:
 * a 0-byte file in a drop fails alone and stays under Jobs → Problems across a reload; a cancelled job leaves
 * Problems once its retry succeeded; Open brings the job into view with focus on it; "… ago" moves on with the clock;
 * at 800×600 the sidebar folds to icons and tables scroll inside their card; the Live tab picks a voice from readable
 * names; a Silero VAD download that fails says so; and a batch finishing while the page is hidden is announced by a
 * system notification (permission granted in the test browser).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../src-main/common/api-types.js';
import { requireCommand, requireFile, SHARED } from '../helpers/system.js';
import { openLoggedInPage, type Chromium } from './logged-in-page.js';
import { ROOT, startServeUi, type ServedUi } from './serve-ui.js';
import { scaled } from '../helpers/time-scale.js';

const SHOTS = join(ROOT, 'test-artifacts', 'screenshots');
const WAV = (name: string): Buffer => readFileSync(join(SHARED, 'audio', 'hifitts-6097', name));
const RECORDINGS = ['roots_02_morris_0219.wav', 'roots_04_morris_0400.wav'];
let served: ServedUi;
let browser: Chromium;
let page: Page;
const pageErrors: string[] = [];

async function openTab(name: string, key: number, on: Page = page): Promise<void> {
  await on.keyboard.press(`Control+${key}`);
  await expect.poll(() => on.getAttribute(`#tab-${name}`, 'aria-selected')).toBe('true');
}

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${served.url}${path}`, { method, headers: { authorization: `Bearer ${served.apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
  return (await res.json()) as T;
}

/** A real drop of files on the Transcribe tab (a DataTransfer built in the page), as a file manager sends it. */
async function drop(files: { name: string; body: Buffer }[]): Promise<void> {
  const payload = files.map((f) => ({ name: f.name, b64: f.body.toString('base64') }));
  await page.locator('#panel-transcribe .drop').evaluate((zone, list) => {
    const data = new DataTransfer();
    for (const f of list) data.items.add(new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name, { type: 'audio/wav' }));
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, payload);
}

describe('what a new user hit (browser mode)', () => {
  beforeAll(async () => {
    requireCommand('pocketsphinx_batch', 'pocketsphinx');
    requireFile('/usr/share/pocketsphinx/model/en-us/en-us', 'pocketsphinx-en-us');
    served = await startServeUi();
    ({ browser, page } = await openLoggedInPage(served, pageErrors));
    await browser.context.grantPermissions(['notifications'], { origin: served.url });
  });

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
  });

  it('a 0-byte file in a drop of three fails alone with its reason, and stays under Jobs → Problems after a reload', async () => {
    await openTab('transcribe', 1);
    const panel = page.locator('#panel-transcribe');
    await drop([...RECORDINGS.map((name) => ({ name, body: WAV(name) })), { name: 'empty.wav', body: Buffer.alloc(0) }]);
    const rows = panel.locator('.list li');
    await expect.poll(() => rows.count()).toBe(3);
    const empty = rows.filter({ hasText: 'empty.wav' });
    await expect.poll(() => empty.locator('[data-status]').getAttribute('data-status')).toBe('failed');
    expect(await empty.getByTestId('row-error').innerText()).toMatch(/The file is empty \(0 bytes\)/);
    for (const name of RECORDINGS) {
      await expect.poll(() => rows.filter({ hasText: name }).locator('[data-status]').getAttribute('data-status'), { timeout: scaled(120_000) }).toBe('succeeded');
    }

    await page.reload();
    await page.getByRole('tab', { name: /Jobs/ }).waitFor();
    await openTab('jobs', 4);
    const jobs = page.locator('#panel-jobs');
    await jobs.getByRole('button', { name: 'Problems' }).click();
    const unsent = jobs.getByTestId('unsent-files');
    await expect.poll(() => unsent.innerText()).toMatch(/empty\.wav[\s\S]*The file is empty \(0 bytes\)/);
    await page.screenshot({ path: join(SHOTS, 'jobs-problems-unsent.png'), fullPage: true });
    await unsent.getByRole('button', { name: 'Dismiss empty.wav' }).click();
    await expect.poll(() => unsent.count()).toBe(0);
    await jobs.getByRole('button', { name: 'All' }).click();
  }, scaled(300_000));

  it('a cancelled job leaves Problems once its retry has succeeded', async () => {
    const form = new FormData();
    form.append('model', 'pocketsphinx-en-us');
    form.append('name', 'to-cancel.wav');
    form.append('file', new Blob([readFileSync(join(SHARED, 'audio', 'jfk.wav'))]), 'to-cancel.wav');
    const held = fetch(`${served.url}/v1/speech-to-text`, { method: 'POST', headers: { authorization: `Bearer ${served.apiKey}` }, body: form });
    let job: Job | undefined;
    await expect.poll(async () => (job = (await api<{ data: Job[] }>('GET', '/v1/jobs?limit=20')).data.find((j) => j.name === 'to-cancel.wav')), { timeout: scaled(30_000) }).toBeTruthy();
    await api('POST', `/v1/speech-to-text/${job!.id}/cancel`);
    await held;
    await openTab('jobs', 4);
    const jobs = page.locator('#panel-jobs');
    await jobs.getByRole('button', { name: 'Problems' }).click();
    const row = jobs.locator('tbody tr', { hasText: 'to-cancel.wav' });
    await expect.poll(() => row.count(), { timeout: scaled(30_000) }).toBe(1);
    await row.getByRole('button', { name: 'Retry' }).click();
    // The retry runs and succeeds; the cancelled job it took over from is no longer a problem.
    await expect.poll(async () => (await api<{ data: Job[] }>('GET', '/v1/jobs?limit=20')).data.some((j) => j.name === 'to-cancel.wav' && j.status === 'succeeded'), { timeout: scaled(120_000) }).toBe(true);
    await expect.poll(() => row.count(), { timeout: scaled(30_000) }).toBe(0);
    await jobs.getByRole('button', { name: 'All' }).click();
    expect(await jobs.locator('tbody tr', { hasText: 'to-cancel.wav' }).count()).toBe(2); // both are in the history
  }, scaled(200_000));

  it('Open brings the transcript into view and moves focus to it', async () => {
    await openTab('jobs', 4);
    const jobs = page.locator('#panel-jobs');
    await page.setViewportSize({ width: 1280, height: 600 });
    await jobs.locator('tbody tr', { hasText: RECORDINGS[0]! }).getByRole('button', { name: 'Open' }).click();
    const title = jobs.getByTestId('opened-title');
    await expect.poll(() => title.evaluate((el) => el === document.activeElement)).toBe(true);
    const top = await title.evaluate((el) => el.getBoundingClientRect().top);
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(600);
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it('"… ago" moves on with the clock', async () => {
    // Another tab of the same browser (logged in already), with a clock the test moves on.
    const other = await browser.context.newPage();
    await other.clock.install();
    await other.goto(served.url);
    await other.getByRole('tab', { name: /Jobs/ }).click();
    const when = other.locator('#panel-jobs tbody tr').first().locator('td').nth(4);
    await expect.poll(() => when.innerText(), { timeout: scaled(30_000) }).toMatch(/^(now|\d+ minutes? ago)$/);
    const before = await when.innerText();
    await other.clock.fastForward('03:00');
    await expect.poll(() => when.innerText()).not.toBe(before);
    expect(await when.innerText()).toMatch(/^\d+ minutes ago$/);
    await other.close();
  });

  it('at 800×600 the sidebar folds to icons and tables scroll inside their card', async () => {
    await page.setViewportSize({ width: 800, height: 600 });
    try {
      await openTab('jobs', 4);
      const layout = await page.evaluate(() => {
        const nav = document.querySelector('nav.sidebar')!.getBoundingClientRect();
        const label = document.querySelector('#tab-jobs .label')!;
        const table = document.querySelector('#panel-jobs .table-scroll')!;
        return {
          nav: nav.width,
          labelShown: getComputedStyle(label).display !== 'none',
          tabName: document.getElementById('tab-jobs')!.title,
          pageScrolls: document.documentElement.scrollWidth > innerWidth,
          tableScrolls: table.scrollWidth > table.clientWidth,
          tableInside: table.getBoundingClientRect().right <= innerWidth,
        };
      });
      expect(layout).toMatchObject({ labelShown: false, pageScrolls: false, tableScrolls: true, tableInside: true });
      expect(layout.nav).toBeLessThanOrEqual(64);
      expect(layout.tabName).toMatch(/^Jobs/);
      await page.screenshot({ path: join(SHOTS, 'jobs-800x600.png') });
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  });

  it('the Live tab picks a voice from readable names, without eSpeak’s raw entries', async () => {
    await openTab('live', 3);
    const panel = page.locator('#panel-live');
    await panel.getByRole('button', { name: 'Speak' }).first().click();
    const voice = panel.locator('#live-voice');
    await expect.poll(() => voice.locator('option').count()).toBeGreaterThan(50);
    const names = await voice.locator('option').allInnerTexts();
    expect(names).toContain('Cherokee');
    expect(names.filter((n) => n.includes('//') || /test$/.test(n))).toEqual([]);
    await voice.selectOption({ label: 'German' });
    await panel.locator('#live-text').pressSequentially('Guten Tag. ', { delay: 5 });
    await expect.poll(async () => Number(await panel.getByTestId('live-status').getAttribute('data-frames')), { timeout: scaled(30_000) }).toBeGreaterThan(0);
  });

  it('a model download that fails says so: the Dictate panel’s Silero VAD (when not built in) and the Models tab', async () => {
    await api('PUT', '/v1/settings/models', { mirror: 'http://127.0.0.1:9' }); // nothing listens there
    try {
      await openTab('live', 3);
      const live = page.locator('#panel-live');
      await live.getByRole('button', { name: 'Dictate' }).click();
      // A service that ships Silero VAD has no such button: every offline recognizer takes dictation already.
      const vad = live.getByRole('button', { name: 'Download Silero VAD' });
      if (await vad.count()) {
        await vad.click();
        await expect.poll(() => live.getByTestId('vad-error').innerText().catch(() => ''), { timeout: scaled(90_000) }).toMatch(/Silero VAD could not be downloaded: The download failed/);
        expect(await live.getByRole('button', { name: 'Try the download again' }).count()).toBe(1);
      }
      await openTab('models', 5);
      const row = page.locator('#panel-models tr[data-model="moonshine-tiny-en"]');
      await row.getByRole('button', { name: 'Download' }).click();
      await expect.poll(() => row.locator('.error-text').innerText().catch(() => ''), { timeout: scaled(90_000) }).toMatch(/The download failed\. Check the connection/);
      // Bytes in: Resume download; none: Retry.
      expect(await row.getByRole('button', { name: /^(Resume download|Retry)$/ }).count()).toBe(1);
    } finally {
      await api('PUT', '/v1/settings/models', { mirror: null });
    }
  }, scaled(200_000));

  it('announces a batch that finishes while the page is hidden with a system notification', async () => {
    await openTab('settings', 7);
    const toggle = page.locator('#panel-settings').getByLabel(/Tell me when long work finishes/);
    await toggle.check();
    await page.locator('#panel-settings').getByTestId('notify-granted').waitFor();
    // Every note the page shows is recorded (the real API still shows it), and the page is told it is hidden.
    await page.evaluate(() => {
      const real = window.Notification;
      const shown: { title: string; body: string }[] = [];
      (window as unknown as { shownNotes: typeof shown }).shownNotes = shown;
      window.Notification = class extends real {
        constructor(title: string, options?: NotificationOptions) {
          super(title, options);
          shown.push({ title, body: options?.body ?? '' });
        }
      } as typeof Notification;
    });
    await openTab('transcribe', 1);
    await drop(RECORDINGS.map((name) => ({ name: `again-${name}`, body: WAV(name) })));
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      document.hasFocus = () => false;
    });
    await expect.poll(() => page.evaluate(() => (window as unknown as { shownNotes: unknown[] }).shownNotes), { timeout: scaled(180_000) }).toEqual([
      { title: 'Batch finished', body: '2 items: 2 done, 0 failed.' },
    ]);
    expect(pageErrors).toEqual([]);
  }, scaled(240_000));
});
