/**
 * The first start as a new user meets it, in Chromium against the service with the UI (in process, so it can offer
 * Parakeet TDT 0.6B v2 pinned to the tiny archive of ../shared/models/tiny: test/helpers/tiny-archives.ts), on a new
 * data dir: the welcome screen says what Voxdesk is, recommends Parakeet v2 for English with its size and licence,
 * offers PocketSphinx marked as low accuracy; a download that cannot start says so plainly (the mirror setting points
 * nowhere); through a local mirror the download shows its progress; the service is stopped in the middle of it and
 * started again — the page says at once that it is gone, the address it prints logs the same tab back in, and the
 * download resumes from the bytes it had (a Range request) to an installed recognizer the Transcribe tab opens on.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURATED_PACKAGES, type ModelPackage } from '../../src-main/models/packages/curated-models.js';
import { startRangeServer, type RangeServer } from '../helpers/range-server.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { requireCommand } from '../helpers/system.js';
import { shippedArchive } from '../helpers/tiny-archives.js';
import { describeViolations, seriousViolations } from './axe.js';
import { openLoggedInPage, type Chromium } from './logged-in-page.js';
import { ROOT } from './serve-ui.js';
import { scaled } from '../helpers/time-scale.js';

const SHOTS = join(ROOT, 'test-artifacts', 'screenshots');
const ARCHIVE = shippedArchive('sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8.tar.bz2');
const PARAKEET: ModelPackage = (() => {
  const curated = CURATED_PACKAGES.find((p) => p.id === 'parakeet-tdt-0.6b-v2')!;
  return { ...curated, files: [{ ...curated.files[0]!, sha256: ARCHIVE.sha256, sizeBytes: ARCHIVE.body.length }] };
})();
const MIRROR_PATH = `/parakeet-tdt-0.6b-v2/${ARCHIVE.name}`;

let work: string;
let mirror: RangeServer;
let svc: TestService;
let browser: Chromium;
let page: Page;
const pageErrors: string[] = [];

/** The service with the browser UI on `port` (0: any) over the same data dir each time. */
function startService(port = 0): Promise<TestService> {
  return startTestService({
    dataDir: join(work, 'data'),
    port,
    serveUi: join(ROOT, 'src-renderer', 'dist'),
    extraModelSources: [], // no test engine models: the catalogue a new user has
    modelPackages: [PARAKEET],
    holdSeconds: 30,
  });
}

async function setMirror(url: string): Promise<void> {
  const res = await fetch(`${svc.url}/v1/settings/models`, { method: 'PUT', headers: { authorization: `Bearer ${svc.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ mirror: url }) });
  expect(res.status).toBe(200);
}

describe('the welcome screen on a new data dir (browser mode)', () => {
  beforeAll(async () => {
    requireCommand('pocketsphinx_batch', 'pocketsphinx');
    mkdirSync(SHOTS, { recursive: true });
    work = mkdtempSync(join(tmpdir(), 'voxdesk-welcome-'));
    // 4 KiB every 120 ms: about two seconds for the 70 KB archive, time to watch it and to stop the service mid-way.
    mirror = await startRangeServer({ [MIRROR_PATH]: { body: ARCHIVE.body, slowChunkMs: 120, chunkBytes: 4096 } });
    svc = await startService();
    ({ browser, page } = await openLoggedInPage({ loginUrl: svc.service.browserLoginUrl()! }, pageErrors, { keepWelcome: true }));
  });

  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
    await mirror?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('says what Voxdesk is, recommends Parakeet v2 for English with its size and licence, and offers PocketSphinx as low accuracy', async () => {
    const welcome = page.getByTestId('welcome');
    await welcome.waitFor();
    expect(await page.getByRole('tab').count()).toBe(0); // a screen of its own
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Welcome to Voxdesk');
    expect(await welcome.innerText()).toMatch(/turns recordings into text and text into speech, on this computer/);
    const card = page.getByTestId('welcome-recommended');
    expect(await card.innerText()).toMatch(/Recommended for English[\s\S]*Parakeet TDT 0\.6B v2[\s\S]*most accurate English recognizer/);
    expect(await card.getByTestId('welcome-size').innerText()).toMatch(/^\d+ kB download · licence CC-BY-4\.0$/);
    expect(await welcome.innerText()).toMatch(/Low accuracy[\s\S]*about one word in two wrong[\s\S]*Use PocketSphinx for now/);
    expect(describeViolations('welcome', await seriousViolations(page))).toBe('');
    await page.screenshot({ path: join(SHOTS, 'welcome.png'), fullPage: true });
  });

  it('says plainly when the download cannot start (offline), then downloads through the mirror with progress', async () => {
    await setMirror('http://127.0.0.1:9'); // nothing listens there: like a computer without network
    await page.getByTestId('welcome-download').click();
    const offline = page.getByTestId('welcome-offline');
    await expect.poll(() => offline.isVisible(), { timeout: scaled(90_000) }).toBe(true);
    expect(await offline.innerText()).toMatch(/The download could not start\.[\s\S]*seems to be offline[\s\S]*Use PocketSphinx for now/);
    await page.screenshot({ path: join(SHOTS, 'welcome-offline.png'), fullPage: true });

    await setMirror(mirror.url);
    await page.getByTestId('welcome-download').click();
    const bar = page.getByTestId('welcome-progress').getByRole('progressbar');
    await expect.poll(async () => Number((await bar.getAttribute('aria-valuenow').catch(() => null)) ?? 0), { timeout: scaled(30_000) }).toBeGreaterThan(10);
    expect(await page.getByTestId('welcome-progress').innerText()).toMatch(/\d+ kB of \d+ kB · \d+ %/);
    await page.screenshot({ path: join(SHOTS, 'welcome-progress.png'), fullPage: true });
  });

  it('resumes after the service is stopped mid-download: the page says so, the printed address logs the same tab back in', async () => {
    const port = svc.service.port;
    const requestsBefore = mirror.requests.length;
    await svc.service.close(0); // the data dir stays: a restart of the same install
    await expect.poll(() => page.getByTestId('service-unreachable').count(), { timeout: scaled(30_000) }).toBe(1);
    svc = await startService(port);
    // Back on the same address with a new process: this page's session ended with the old one, and it says so.
    await expect.poll(() => page.getByTestId('session-ended').count(), { timeout: scaled(30_000) }).toBe(1);
    expect(await page.getByTestId('session-ended').innerText()).toMatch(/restarted, so this page is logged out/);
    // The address the new process prints, pasted into the same tab: only its hash changes, and the page logs in.
    const login = new URL(svc.service.browserLoginUrl()!);
    await page.evaluate((hash) => (location.hash = hash), login.hash);
    await expect.poll(() => page.getByTestId('session-ended').count(), { timeout: scaled(30_000) }).toBe(0);
    expect(page.url()).not.toContain('#token=');

    const resume = page.getByTestId('welcome-download');
    await expect.poll(async () => (await resume.isVisible()) && /Resume the download \(\d+ % done\)/.test(await resume.innerText()), { timeout: scaled(30_000) }).toBe(true);
    await resume.click();
    await expect.poll(() => page.getByTestId('welcome-recommended').innerText(), { timeout: scaled(60_000) }).toMatch(/is installed and ready/);
    const resumed = mirror.requests.slice(requestsBefore).find((r) => r.path === MIRROR_PATH);
    expect(resumed?.range).toMatch(/^bytes=[1-9]\d*-$/);
    expect(resumed?.status).toBe(206);

    await page.getByRole('button', { name: 'Start transcribing' }).click();
    await page.getByRole('tab', { name: /Transcribe/ }).waitFor();
    await expect.poll(() => page.locator('#asr-model').inputValue()).toBe('parakeet-tdt-0.6b-v2');
    // Chosen once: a reload goes straight to the tabs.
    await page.reload();
    await page.getByRole('tab', { name: /Transcribe/ }).waitFor();
    expect(await page.getByTestId('welcome').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  }, scaled(180_000));
});
