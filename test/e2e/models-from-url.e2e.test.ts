/**
 * The Models tab's "Add from URL" in Chromium against a real `voxdesk serve --ui`: a model archive served by a local
 * HTTP server is added by URL + sha256, downloads, appears in the Transcribe tab's model picker, and a job with it
 * succeeds with the tiny model's exact text (../shared/models/tiny/README.md). The Download source form saves a mirror,
 * and a curated model whose checksum nobody publishes is installed through it only after the person accepts.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedModel } from '../helpers/generated-models.js';
import { SHARED } from '../helpers/system.js';
import { startRangeServer, type RangeServer } from '../helpers/range-server.js';
import { shippedArchive } from '../helpers/tiny-archives.js';
import { ROOT, startServeUi, type ServedUi } from './serve-ui.js';
import { openLoggedInPage, type Chromium } from './logged-in-page.js';
import { scaled } from '../helpers/time-scale.js';

const SHOTS = join(ROOT, 'test-artifacts', 'screenshots');
const MOONSHINE_JFK = 'dse theafg thednysemeqa theov topmv andht l oft ton afl';
let served: ServedUi;
let server: RangeServer;
let browser: Chromium;
let page: Page;
const pageErrors: string[] = [];

async function openTab(name: string, key: number): Promise<void> {
  await page.keyboard.press(`Control+${key}`);
  await expect.poll(() => page.getAttribute(`#tab-${name}`, 'aria-selected')).toBe('true');
}

describe('Models → Add from URL (browser mode)', () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    server = await startRangeServer();
    // The tiny model's text is pinned for the whole recording, without the shipped VAD cutting it.
    served = await startServeUi({ env: { VOXDESK_BUILT_IN_MODELS: 'off' } });
    ({ browser, page } = await openLoggedInPage(served, pageErrors));
  });

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    await server?.close();
  });

  it('adds a model archive by URL and sha256; it appears in the Transcribe picker and transcribes', async () => {
    const archive = shippedArchive('sherpa-onnx-moonshine-tiny-en-int8.tar.bz2');
    server.files.set(`/releases/${archive.name}`, { body: archive.body });
    await openTab('models', 5);
    const panel = page.locator('#panel-models');
    const form = panel.getByRole('form', { name: 'Add from URL' });
    const submit = form.getByRole('button', { name: 'Add and download' });
    await form.getByLabel('Download URL').fill(`${server.url}/releases/${archive.name}`);
    await form.getByLabel('SHA-256').fill('not a checksum');
    await expect.poll(() => form.innerText()).toMatch(/A SHA-256 is 64 hexadecimal digits/);
    expect(await submit.isDisabled()).toBe(true);
    await form.getByLabel('SHA-256').fill(archive.sha256);
    await form.getByLabel(/Model id/).fill('moonshine-from-url');
    await submit.click();

    // The package is detected as Moonshine once downloaded and becomes a Ready speech-recognition row.
    const row = panel.locator('tr[data-model="moonshine-from-url"]');
    await expect.poll(() => row.count(), { timeout: scaled(60_000) }).toBe(1);
    await expect.poll(() => row.innerText(), { timeout: scaled(60_000) }).toMatch(/Ready/);
    await page.screenshot({ path: join(SHOTS, 'models-add-from-url.png'), fullPage: true });

    await openTab('transcribe', 1);
    const transcribe = page.locator('#panel-transcribe');
    const picker = transcribe.locator('#asr-model');
    await expect.poll(() => picker.locator('option').evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value))).toContain('moonshine-from-url');
    await picker.selectOption('moonshine-from-url');
    await transcribe.locator('[data-testid="file-input"]').setInputFiles(join(SHARED, 'audio', 'jfk.wav'));
    await expect.poll(() => transcribe.locator('.list [data-status]').first().getAttribute('data-status'), { timeout: scaled(120_000) }).toBe('succeeded');
    await expect.poll(() => transcribe.locator('.transcript').innerText(), { timeout: scaled(10_000) }).toContain(MOONSHINE_JFK.split(' ').slice(0, 3).join(' '));
    const job = (await (await fetch(`${served.url}/v1/jobs?product=speech-to-text&limit=1`, {
      headers: { authorization: `Bearer ${served.apiKey}` },
    })).json()) as { data: Array<{ model_id: string; status: string; result: { text: string } }> };
    expect(job.data[0]).toMatchObject({ model_id: 'moonshine-from-url', status: 'succeeded', result: { text: MOONSHINE_JFK } });
  });

  it('says why a tampered download failed (in the interface\'s words for its code) and shows the service\'s reason for a bad request', async () => {
    await openTab('models', 5);
    const panel = page.locator('#panel-models');
    const archive = shippedArchive('sherpa-onnx-sense-voice-zh-en-ja-ko-yue-int8-2024-07-17.tar.bz2');
    server.files.set(`/releases/${archive.name}`, { body: archive.body });
    const form = panel.getByRole('form', { name: 'Add from URL' });
    await form.getByLabel('Download URL').fill(`${server.url}/releases/${archive.name}`);
    await form.getByLabel('SHA-256').fill('0'.repeat(64));
    await form.getByLabel(/Model id/).fill('tampered');
    await form.getByRole('button', { name: 'Add and download' }).click();
    const row = panel.locator('tr[data-package="tampered"]');
    await expect.poll(() => row.innerText(), { timeout: scaled(60_000) }).toMatch(/Failed[\s\S]*not the expected one \(its checksum differs\), so nothing was installed/);

    await form.getByLabel('Download URL').fill(`${server.url}/releases/model.zip`);
    await form.getByLabel('SHA-256').fill('1'.repeat(64));
    await form.getByRole('button', { name: 'Add and download' }).click();
    await expect.poll(() => form.getByRole('alert').innerText()).toMatch(/must name a \.tar\.bz2, \.tar\.gz \(or \.tgz\) archive or an \.onnx file/);
  });

  it('saves a model mirror in Download source', async () => {
    const panel = page.locator('#panel-models');
    const form = panel.getByRole('form', { name: 'Download source' });
    await expect.poll(() => form.getByRole('button', { name: 'Save' }).isDisabled()).toBe(false);
    await form.getByLabel('Model mirror').fill('ftp://nope');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => form.getByRole('alert').innerText()).toMatch(/http\(s\) URL/);
    await form.getByLabel('Model mirror').fill(`${server.url}/mirror`);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await (await fetch(`${served.url}/v1/settings/models`, { headers: { authorization: `Bearer ${served.apiKey}` } })).json()) as { mirror: string }).toMatchObject({
      mirror: `${server.url}/mirror`,
      mirror_from: 'setting',
    });
    expect(pageErrors).toEqual([]);
  });

  it('installs a curated model whose checksum nobody publishes only after asking, and marks it unverified', async () => {
    // Through the mirror saved above: DPDFNet's pin is unconfirmed in the curated list.
    server.files.set('/mirror/dpdfnet-baseline/dpdfnet_baseline.onnx', { body: readFileSync(join(generatedModel('dpdfnet'), 'dpdfnet_baseline.onnx')) });
    const panel = page.locator('#panel-models');
    const row = panel.locator('tr[data-model="dpdfnet-baseline"]');
    await expect.poll(() => row.innerText()).toMatch(/Checksum not published/);
    const dialogs: string[] = [];
    page.once('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await row.getByRole('button', { name: 'Download unverified…' }).click();
    await expect.poll(() => dialogs.length).toBe(1);
    expect(dialogs[0]).toMatch(/No published source confirms the checksum of .*DPDFNet/);
    expect(server.requests.some((r) => r.path.startsWith('/mirror/dpdfnet-baseline/'))).toBe(false);
    page.once('dialog', (dialog) => void dialog.accept());
    await row.getByRole('button', { name: 'Download unverified…' }).click();
    await expect.poll(() => row.innerText(), { timeout: scaled(60_000) }).toMatch(/Ready[\s\S]*Unverified/);
    expect(pageErrors).toEqual([]);
  });
});
