/**
 * `npm run test:desktop`: the real Electron app driven by Playwright's Electron support (playwright-core `_electron`),
 * as a person starts it after `npm install && npm run app` — natives built for Electron's ABI, compiled main process,
 * built renderer, a fresh data dir. The window opens on the app page; the page reaches the in-process service through
 * the preload bridge; a recording is transcribed through the UI; a voice is previewed live through the native player
 * (on Linux into a private PulseAudio null sink, recorded and checked for sound); quitting leaves no process behind.
 *
 * It needs the Electron binary, which cannot be downloaded on the development machines, so it is not part of
 * `npm test`: .github/workflows/desktop.yml runs it on Linux (under xvfb), macOS and Windows. The recognizer is
 * Moonshine tiny (English, 108 MB), downloaded through the model manager as a person would; the recording is the
 * sample the app ships (resources/samples/model-test.wav).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DesktopBridge, LiveBridgeEvent } from '../../src-main/common/desktop-bridge.js';
import { audibleSeconds, startPulse, type Pulse } from '../audio/pulse.js';
import { until as waitUntil } from '../helpers/wait.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SAMPLE = join(ROOT, 'resources', 'samples', 'model-test.wav');
const RECOGNIZER = 'moonshine-tiny-en';

let dataDir: string;
let pulse: Pulse | null = null;
let app: ElectronApplication;
let page: Page;

declare global {
  interface Window {
    voxdesk?: DesktopBridge;
  }
}

/** The service, called from inside the page with the bridge's key: what the renderer itself does. */
function api<T>(path: string, init: { method?: string } = {}): Promise<{ status: number; body: T }> {
  return page.evaluate(
    async ({ path, method }) => {
      const bridge = window.voxdesk!;
      const res = await fetch(`${bridge.serviceUrl}${path}`, { method: method ?? 'GET', headers: { authorization: `Bearer ${bridge.apiKey}` } });
      return { status: res.status, body: (await res.json()) as T };
    },
    { path, method: init.method },
  );
}

const until = <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, ms: number): Promise<T> => waitUntil(what, read, done, { timeoutMs: ms, everyMs: 250 });

beforeAll(async () => {
  // The electron package answers the path of the binary it downloaded at install.
  const electronBinary = createRequire(import.meta.url)('electron') as unknown as string;
  if (!existsSync(join(ROOT, 'dist', 'src-main', 'app', 'main.js'))) throw new Error('run npm run build first (npm run test:desktop does)');
  dataDir = mkdtempSync(join(tmpdir(), 'voxdesk-desktop-'));
  if (process.platform === 'linux') pulse = startPulse();
  app = await _electron.launch({
    executablePath: electronBinary,
    // Linux CI runners refuse Chromium's user-namespace sandbox; the page keeps its renderer sandbox settings.
    args: [...(process.platform === 'linux' ? ['--no-sandbox'] : []), ROOT],
    cwd: ROOT,
    env: { ...process.env, ...(pulse?.env ?? {}), VOXDESK_DATA_DIR: dataDir },
    timeout: 120_000,
  });
  page = await app.firstWindow();
}, 180_000);

afterAll(async () => {
  await app?.close().catch(() => {});
  pulse?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('the desktop app', () => {
  it('opens its window on the app page', async () => {
    expect(page.url()).toBe('app://voxdesk/index.html');
    await page.getByRole('tab').first().waitFor({ timeout: 60_000 });
    expect(await page.title()).toBe('Voxdesk');
  });

  it('reaches the in-process service through the preload bridge, and nothing of Node', async () => {
    const seen = await page.evaluate(() => ({
      bridge: typeof window.voxdesk,
      service: window.voxdesk?.serviceUrl ?? '',
      functions: Object.keys(window.voxdesk ?? {}).filter((k) => typeof (window.voxdesk as unknown as Record<string, unknown>)[k] === 'function').sort(),
      node: typeof (window as unknown as { require?: unknown }).require + typeof (window as unknown as { process?: unknown }).process,
    }));
    expect(seen.bridge).toBe('object');
    expect(seen.service).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(seen.functions).toEqual(['addRecentFiles', 'onOpenWork', 'onUpdate', 'openDataDir', 'pathForFile', 'pickFiles', 'pickFolder', 'startExportDrag']);
    // Dictate anywhere's settings answer through the bridge: armed, or why not (no keyboard hook on a CI display).
    const hotkey = await page.evaluate(() => window.voxdesk!.hotkey.get());
    expect(hotkey).toMatchObject({ enabled: true, shortcut: 'Ctrl+Alt+Space', mode: 'hold' });
    expect(hotkey.armed || typeof hotkey.problem === 'string').toBe(true);
    expect(seen.node).toBe('undefinedundefined');
    expect((await api('/v1/health')).status).toBe(200);
    const models = await api<{ data: { id: string }[] }>('/v1/local/models');
    expect(models.body.data.find((m) => m.id === 'silero-vad-v5')).toMatchObject({ state: 'installed', built_in: true });
  });

  it('transcribes a recording dropped on the Transcribe tab', { timeout: 600_000 }, async () => {
    await api(`/v1/local/models/${RECOGNIZER}/download`, { method: 'POST' });
    const model = await until(
      () => api<{ state: string; error_message: string | null }>(`/v1/local/models/${RECOGNIZER}`),
      (m) => m.body.state === 'installed' || m.body.state === 'failed',
      'the recognizer download',
      480_000,
    );
    expect(model.body).toMatchObject({ state: 'installed' });
    // The page reads the catalogue again, with the new recognizer in it.
    await page.reload();
    await page.getByRole('tab').first().waitFor({ timeout: 60_000 });
    await page.keyboard.press(process.platform === 'darwin' ? 'Meta+1' : 'Control+1');
    const panel = page.locator('#panel-transcribe');
    await panel.locator('#asr-model').selectOption(RECOGNIZER, { timeout: 60_000 });
    await panel.locator('[data-testid="file-input"]').setInputFiles(SAMPLE);
    await expect.poll(() => panel.locator('[data-status]').first().getAttribute('data-status'), { timeout: 240_000 }).toBe('succeeded');
    const jobs = await api<{ data: { name: string | null; model_id: string; status: string; result: { text: string } | null }[] }>('/v1/jobs?product=speech-to-text');
    const job = jobs.body.data.find((j) => j.name === 'model-test.wav');
    expect(job).toMatchObject({ model_id: RECOGNIZER, status: 'succeeded' });
    expect(job!.result!.text.trim().length).toBeGreaterThan(0);
  });

  it('previews a voice live through the native player', { timeout: 120_000 }, async () => {
    const recorder = pulse?.record();
    const events = await page.evaluate(
      () =>
        new Promise<LiveBridgeEvent[]>((resolve, reject) => {
          const live = window.voxdesk!.live;
          const seen: LiveBridgeEvent[] = [];
          const stop = live.onEvent((event) => {
            seen.push(event);
            if (event.type === 'done' || event.type === 'error') {
              stop();
              resolve(seen);
            }
          });
          live
            .start('espeak-ng', 1)
            .then(() => live.speak('Hello from the Voxdesk desktop app.'))
            .catch(reject);
        }),
    );
    expect(events.filter((e) => e.type === 'error')).toEqual([]);
    expect(events.some((e) => e.type === 'audio' && e.samples > 0)).toBe(true);
    expect(events.at(-1)).toEqual({ type: 'done', cancelled: false });
    if (recorder) {
      // Heard on the sink: more than a second of sound for the sentence.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(audibleSeconds(await recorder.stop(), 48_000)).toBeGreaterThan(1);
    }
  });

  it('quits without leaving a process behind', { timeout: 120_000 }, async () => {
    const pids = await app.evaluate(({ app: electronApp }) => electronApp.getAppMetrics().map((metric) => metric.pid));
    const main = app.process().pid!;
    expect(pids.length).toBeGreaterThan(2); // main, renderer, GPU, the engine workers started by the jobs
    await app.close();
    const alive = (pid: number): boolean => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    await until(async () => [main, ...pids].filter(alive), (left) => left.length === 0, 'every process of the app to exit', 60_000);
  });
});
