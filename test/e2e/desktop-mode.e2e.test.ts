/**
 * The renderer as the Electron window runs it, without Electron (its binary cannot be downloaded here): the page
 * comes from ANOTHER origin than the service (as app://voxdesk does), so every call is cross-origin with the key
 * from `window.voxdesk`, allowed by the service's CORS list, and the page carries the app's CSP header (as app://
 * responses do) on top of its meta tag. The bridge object is the one faked boundary: its dialogs return fixed paths.
 */
import { cpSync, createReadStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../src-main/app/window-security.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { SHARED } from '../helpers/system.js';
import { launchChromium } from './chromium.js';
import { pastWelcome } from './logged-in-page.js';
import { ROOT } from './serve-ui.js';
import { scaled } from '../helpers/time-scale.js';

const DIST = join(ROOT, 'src-renderer', 'dist');
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
let statics: Server;
let origin: string;
let svc: TestService;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let modelCopy: string;
const pageErrors: string[] = [];
const cspViolations: string[] = [];

beforeAll(async () => {
  if (!existsSync(join(DIST, 'index.html'))) throw new Error('src-renderer/dist is missing: run npm run build:renderer');
  statics = createServer((req, res) => {
    const path = join(DIST, req.url === '/' ? 'index.html' : decodeURIComponent(req.url!.split('?')[0]!));
    if (!path.startsWith(DIST) || !existsSync(path)) return void res.writeHead(404).end();
    const html = extname(path) === '.html';
    res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream', ...(html ? { 'content-security-policy': contentSecurityPolicy(svc.url) } : {}) });
    createReadStream(path).pipe(res);
  });
  await new Promise<void>((resolve) => statics.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(statics.address() as AddressInfo).port}`;
  svc = await startTestService({ allowedOrigins: [origin] });
  modelCopy = mkdtempSync(join(tmpdir(), 'voxdesk-import-'));
  cpSync(join(SHARED, 'models', 'tiny', 'tiny-nemo-ctc'), join(modelCopy, 'tiny-nemo-ctc'), { recursive: true });
  browser = await launchChromium();
  page = await browser.context.newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  const bridge = { serviceUrl: svc.url, apiKey: svc.key, dataDir: svc.dataDir, folder: join(modelCopy, 'tiny-nemo-ctc') };
  await page.addInitScript((b) => {
    (window as unknown as { voxdesk: unknown }).voxdesk = {
      serviceUrl: b.serviceUrl,
      apiKey: b.apiKey,
      dataDir: b.dataDir,
      platform: 'linux',
      pickFiles: async () => [],
      pickFolder: async () => b.folder,
      openDataDir: async () => undefined,
      live: {
        start: async () => ({ sampleRate: 22050 }),
        speak: async () => undefined,
        setSpeed: async () => undefined,
        stop: async () => undefined,
        onEvent: () => () => undefined,
      },
      startExportDrag: () => undefined,
      pathForFile: () => '',
      addRecentFiles: async () => undefined,
      onUpdate: () => () => undefined,
      onOpenWork: () => () => undefined,
      hotkey: {
        get: async () => ({ enabled: false, shortcut: 'Ctrl+Alt+Space', mode: 'hold' as const, insertion: 'paste' as const, model: null, armed: false, problem: null, activeModel: null }),
        set: async () => ({ enabled: false, shortcut: 'Ctrl+Alt+Space', mode: 'hold' as const, insertion: 'paste' as const, model: null, armed: false, problem: null, activeModel: null }),
      },
    };
  }, bridge);
  await page.goto(origin);
  await pastWelcome(page);
});

afterAll(async () => {
  await browser?.close();
  await svc?.stop();
  statics?.close();
  if (modelCopy) rmSync(modelCopy, { recursive: true, force: true });
});

describe('desktop mode (page on its own origin, key from the bridge)', () => {
  it('works cross-origin: catalogue, speak with a test model, job list', async () => {
    await expect.poll(() => page.locator('.status').innerText(), { timeout: scaled(20_000) }).toMatch(/Ready|in progress/);
    await page.keyboard.press('Control+2');
    const panel = page.locator('#panel-speak');
    await panel.locator('#tts-model').selectOption('espeak-ng');
    await panel.locator('#tts-text').fill('Cross origin speech.');
    await panel.getByRole('button', { name: /^Speak/ }).click();
    await expect.poll(() => panel.locator('audio').count(), { timeout: scaled(60_000) }).toBeGreaterThan(0);
    await page.keyboard.press('Control+4');
    await expect.poll(() => page.locator('#panel-jobs tbody tr').count()).toBeGreaterThan(0);
  });

  it('Esc cancels a speech job whose held POST has not answered yet', async () => {
    await page.keyboard.press('Control+2');
    const panel = page.locator('#panel-speak');
    await panel.locator('#tts-model').selectOption('test-tts');
    await panel.getByText('Options').click();
    await panel.locator('#tts-param-behaviour').selectOption('sleep');
    await panel.locator('#tts-param-ms').fill('60000');
    await panel.locator('#tts-text').fill('A slow job to cancel.');
    await panel.getByRole('button', { name: /^Speak/ }).click();
    await expect.poll(() => panel.getByRole('button', { name: /Cancel/ }).count()).toBe(1);
    // Wait until the service has the job, then cancel from the keyboard.
    const headers = { authorization: `Bearer ${svc.key}` };
    const find = async () => ((await (await fetch(`${svc.url}/v1/jobs?product=text-to-speech`, { headers })).json()) as { data: { name: string; status: string }[] }).data.find((j) => j.name === 'A slow job to cancel.');
    await expect.poll(async () => (await find())?.status, { timeout: scaled(20_000) }).toMatch(/queued|running/);
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await find())?.status, { timeout: scaled(20_000) }).toBe('cancelled');
    await panel.getByText('Options').click();
  });

  it('pages through more jobs than the first page holds', async () => {
    const headers = { authorization: `Bearer ${svc.key}`, 'content-type': 'application/json' };
    for (let b = 0; b < 3; b++) {
      const items = Array.from({ length: 40 }, (_, i) => ({ text: `item ${b}-${i}`, name: `Paged ${b}-${i}` }));
      const res = await fetch(`${svc.url}/v1/text-to-speech/batch`, { method: 'POST', headers, body: JSON.stringify({ model: 'test-tts', params: { ms: 0 }, items }) });
      expect(res.status).toBe(200);
      const { id } = (await res.json()) as { id: string };
      await expect.poll(async () => ((await (await fetch(`${svc.url}/v1/text-to-speech/batch/${id}`, { headers })).json()) as { status: string }).status, { timeout: scaled(120_000) }).toBe('complete');
    }
    await page.keyboard.press('Control+4');
    const panel = page.locator('#panel-jobs');
    await expect.poll(() => panel.locator('tbody tr').count(), { timeout: scaled(20_000) }).toBe(100);
    await panel.getByRole('button', { name: 'Show older jobs' }).click();
    await expect.poll(() => panel.locator('tbody tr').count()).toBeGreaterThan(120);
  });

  it('shows the data folder from the bridge', async () => {
    await page.keyboard.press('Control+7');
    await expect.poll(() => page.locator('[data-testid="data-dir"]').innerText()).toBe(svc.dataDir);
    await expect(page.locator('#panel-settings').getByRole('button', { name: 'Open folder' }).count()).resolves.toBe(1);
  });

  it('imports a model folder picked with the native dialog', async () => {
    await page.keyboard.press('Control+5');
    const panel = page.locator('#panel-models');
    await panel.getByRole('button', { name: 'Browse…' }).click();
    await expect.poll(() => panel.locator('#import-path').inputValue()).toContain('tiny-nemo-ctc');
    await panel.getByRole('button', { name: 'Import' }).click();
    await expect.poll(() => page.locator('.toasts').innerText(), { timeout: scaled(30_000) }).toMatch(/imported|could not|not valid|failed/i);
    const toast = await page.locator('.toasts').innerText();
    expect(toast).toMatch(/Model imported/);
    await page.screenshot({ path: join(ROOT, 'test-artifacts', 'screenshots', 'models-import-desktop.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
    expect(cspViolations).toEqual([]);
  });
});
