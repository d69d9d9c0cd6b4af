/**
 * The Electron main process (src-main/app/desktop-app.ts) under Node, with Electron replaced only at its boundary
 * (test/helpers/fake-electron.ts): the real service on a temp data dir, real HTTP, real engine worker processes
 * started as utility processes. One instance; the page served on app:// with its CSP; the bridge's config only for the
 * app's own top-level page; jobs through the per-install key, run in utility processes; tray, badge and taskbar
 * progress; a notification per batch finished while the window is hidden, none while it is in front; drag-out of an
 * export; recent documents; updates checked at start and installed at quit, after the service stopped; a quit that
 * leaves no worker process behind; dictate anywhere's settings through the bridge; a meeting capture on the tray.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ORIGIN } from '../../../src-main/app/app-protocol.js';
import { runDesktopApp, type DesktopApp } from '../../../src-main/app/desktop-app.js';
import { LOOPBACK_FEATURES } from '../../../src-main/app/system-audio-capture.js';
import type { Batch, Job } from '../../../src-main/common/api-types.js';
import type { Capture } from '../../../src-main/common/capture-protocol.js';
import { BRIDGE_CHANNELS, type HotkeySettingsView } from '../../../src-main/common/desktop-bridge.js';
import { APP_FRAME, fakeElectron, FakeUpdater, FOREIGN_FRAME, IFRAME, type FakeElectron } from '../../helpers/fake-electron.js';
import { requireFile, SHARED } from '../../helpers/system.js';
import { silentLog } from '../../../src-main/common/log.js';
import { logInto } from '../../helpers/log.js';
import { scaled } from '../../helpers/time-scale.js';
import { until } from '../../helpers/wait.js';

let work: string;
let electron: FakeElectron;
let updater: FakeUpdater;
let desktop: DesktopApp;
let config: { serviceUrl: string; apiKey: string; dataDir: string; platform: string };
const logged: string[] = [];

const api = (path: string, init: RequestInit = {}): Promise<Response> =>
  fetch(`${config.serviceUrl}${path}`, { ...init, headers: { authorization: `Bearer ${config.apiKey}`, ...(init.headers ?? {}) } });

/** This file's waits (helpers/wait.ts). */
const WAIT = { timeoutMs: scaled(60_000) };

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'voxdesk-desktop-app-'));
  // The app folder as electron-builder lays it out: the built page and the resources.
  const appPath = join(work, 'app');
  mkdirSync(join(appPath, 'src-renderer', 'dist'), { recursive: true });
  mkdirSync(join(appPath, 'resources'), { recursive: true });
  writeFileSync(join(appPath, 'src-renderer', 'dist', 'index.html'), '<!doctype html><title>Voxdesk</title>');
  electron = fakeElectron({ appPath });
  electron.packaged = true;
  updater = new FakeUpdater();
  desktop = runDesktopApp({ electron, updater, dataDir: join(work, 'data'), log: logInto(logged) });
  electron.markReady();
  await desktop.ready;
  config = electron.sendSync(BRIDGE_CHANNELS.config, APP_FRAME) as typeof config;
});

afterAll(async () => {
  if (desktop?.service) await desktop.service.close(0);
  rmSync(work, { recursive: true, force: true });
});

describe('the desktop main process under Node', () => {
  it('starts the service on loopback and opens the locked-down window on the app page', async () => {
    expect(desktop.primary).toBe(true);
    expect(config.serviceUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(config.dataDir).toBe(join(work, 'data'));
    const [window] = electron.windows;
    expect(electron.windows).toHaveLength(1);
    expect(window!.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, devTools: false });
    expect(window!.loaded).toEqual(['app://voxdesk/index.html']);
    await until('the window to show', () => window!.visible, Boolean, WAIT);
    // Shown: one engine worker starts ahead of the first job (workers otherwise run on demand).
    await until('a worker to start when the window shows', () => electron.utility.forks.length, (n) => n === 1, WAIT);
    // Navigation away, redirects and webviews are refused; the app page itself is allowed.
    expect(window!.webContents.attempt('will-navigate', 'https://example.com/')).toBe(false);
    expect(window!.webContents.attempt('will-redirect', 'file:///etc/passwd')).toBe(false);
    expect(window!.webContents.attempt('will-navigate', 'app://voxdesk/index.html#jobs')).toBe(true);
    expect(window!.webContents.attempt('will-attach-webview')).toBe(false);
    expect(window!.webContents.openHandler!({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    // Microphone for the app's own page only.
    expect(window!.webContents.checkHandler!(null, 'media', 'app://voxdesk', { mediaType: 'audio' })).toBe(true);
    expect(window!.webContents.checkHandler!(null, 'media', 'https://example.com', { mediaType: 'audio' })).toBe(false);
  });

  it('serves the built page on app:// with the CSP that lets it reach only this service', async () => {
    const handler = electron.protocols.get('app')!;
    const page = await handler(new Request('app://voxdesk/index.html'));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Voxdesk</title>');
    expect(page.headers.get('content-security-policy')).toContain(`connect-src ${config.serviceUrl}`);
    expect((await handler(new Request('app://voxdesk/..%2f..%2fdata/voxdesk.db'))).status).toBe(404);
    expect((await handler(new Request('app://elsewhere/index.html'))).status).toBe(404);
  });

  it('gives the bridge config to the app page only; other frames get nothing and their calls are refused', async () => {
    expect(electron.sendSync(BRIDGE_CHANNELS.config, IFRAME)).toBeNull();
    expect(electron.sendSync(BRIDGE_CHANNELS.config, FOREIGN_FRAME)).toBeNull();
    await expect(electron.invoke(BRIDGE_CHANNELS.openDataDir, FOREIGN_FRAME)).rejects.toThrow(/untrusted/);
    await expect(electron.invoke(BRIDGE_CHANNELS.liveSpeak, IFRAME, 'hello')).rejects.toThrow(/untrusted/);
    expect((await api('/v1/jobs')).status).toBe(200);
  });

  it('runs a job with the install key in an engine worker started as a utility process', async () => {
    const res = await api('/v1/text-to-speech', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'espeak-ng', text: 'Hello from the desktop.' }) });
    const job = (await res.json()) as Job;
    expect(job).toMatchObject({ status: 'succeeded', name: 'Hello from the desktop.' });
    expect(electron.utility.forks.length).toBeGreaterThan(0);
    expect(electron.utility.forks.some((f) => f.child.pid !== undefined)).toBe(true);
  });

  it('shows the work on the tray and the badge, and a finished batch as a notification only while the window is not in front', async () => {
    const [window] = electron.windows;
    const [tray] = electron.trays;
    expect(tray!.image).toBe(join(electron.appPath, 'resources', 'tray.png'));
    expect(tray!.tooltip).toMatch(/^Voxdesk — /);
    expect(tray!.menu.map((item) => item.label ?? item.type)).toEqual([tray!.tooltip, 'separator', 'Open Voxdesk', 'Quit']);
    expect(tray!.tooltip).not.toMatch(/recording/);
    expect(electron.badges.length).toBeGreaterThan(0);
    // Nothing runs any more: the next refresh (every 2 s) clears the taskbar progress.
    await until('the taskbar progress to clear', () => window!.progress.at(-1), (p) => p === -1, { ...WAIT, timeoutMs: scaled(10_000) });

    const batch = async (): Promise<Batch> => {
      const created = (await (await api('/v1/text-to-speech/batch', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'espeak-ng', items: [{ text: 'One.' }, { text: 'Two.' }] }) })).json()) as Batch;
      return until(
        'the batch',
        async () => (await (await api(`/v1/text-to-speech/batch/${created.id}`)).json()) as Batch,
        (b) => b.status === 'complete',
        WAIT,
      );
    };
    // In front: the page shows it; no system notification.
    window!.show();
    window!.focus();
    await batch();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(electron.notifications).toHaveLength(0);
    // Hidden (closed to the tray): the OS tells.
    expect(window!.close()).toBe(false);
    expect(window!.visible).toBe(false);
    const done = await batch();
    const notice = (await until('a notification', () => electron.notifications[0], Boolean, WAIT))!;
    expect(notice).toMatchObject({ shown: true, options: { title: 'Speech batch finished', body: 'All 2 items done.' } });
    // A click brings the window back and tells the page what to open.
    notice.click();
    expect(window!.visible && window!.focused).toBe(true);
    expect(window!.webContents.sent).toContainEqual({ channel: BRIDGE_CHANNELS.openWork, payload: { jobId: null, batchId: done.id } });
  });

  it('focuses the first instance on a second launch; a second instance quits at once', () => {
    const [window] = electron.windows;
    window!.hide();
    window!.minimized = true;
    electron.emitApp('second-instance');
    expect(window!).toMatchObject({ visible: true, focused: true, minimized: false });

    const other = fakeElectron({ appPath: electron.appPath });
    other.singleInstance = false;
    const second = runDesktopApp({ electron: other, updater: new FakeUpdater(), dataDir: join(work, 'data'), log: silentLog });
    expect(second.primary).toBe(false);
    expect(other.quitted).toBe(true);
    expect(other.windows).toHaveLength(0);
  });

  it('drags an export out as a file named after the recording; refuses bad requests and other frames', { timeout: scaled(180_000) }, async () => {
    requireFile('/usr/share/pocketsphinx/model/en-us/en-us', 'pocketsphinx-en-us');
    const form = new FormData();
    form.append('model', 'pocketsphinx-en-us');
    form.append('file', new Blob([readFileSync(join(SHARED, 'audio', 'jfk.wav'))], { type: 'audio/wav' }), 'jfk.wav');
    const job = (await (await api('/v1/speech-to-text', { method: 'POST', body: form })).json()) as Job;
    expect(job.status).toBe('succeeded');

    const drags: { file: string; icon: string }[] = [];
    electron.send(BRIDGE_CHANNELS.startExportDrag, APP_FRAME, drags, job.id, 'srt');
    const [drag] = await until('the drag', () => drags, (d) => d.length > 0, WAIT);
    expect(drag!.file.endsWith(join('drag-out', drag!.file.split(/[\\/]/).at(-2)!, 'jfk.srt'))).toBe(true);
    expect(readFileSync(drag!.file, 'utf8')).toMatch(/^1\r?\n\d\d:\d\d:\d\d,\d{3} --> /);
    expect(drag!.icon).toBe(join(electron.appPath, 'resources', 'icon.png'));

    electron.send(BRIDGE_CHANNELS.startExportDrag, FOREIGN_FRAME, drags, job.id, 'srt');
    electron.send(BRIDGE_CHANNELS.startExportDrag, APP_FRAME, drags, job.id, 'exe');
    electron.send(BRIDGE_CHANNELS.startExportDrag, APP_FRAME, drags, '../../etc/passwd', 'txt');
    electron.send(BRIDGE_CHANNELS.startExportDrag, APP_FRAME, drags, 'job_doesnotexist', 'txt');
    await until('the refusals', () => logged.filter((l) => l.startsWith('drag-out')), (l) => l.length >= 3, WAIT);
    expect(drags).toHaveLength(1);
    expect(logged.find((l) => l.includes('job_doesnotexist'))).toMatch(/not found|no job/i);
  });

  it('opens a live session with the voice the page chose: checked at the bridge, then by the service', async () => {
    await expect(electron.invoke(BRIDGE_CHANNELS.liveStart, APP_FRAME, 'espeak-ng', 1, { colour: 'red' })).rejects.toThrow(/unknown voice setting "colour"/);
    await expect(electron.invoke(BRIDGE_CHANNELS.liveStart, APP_FRAME, 'espeak-ng', 1, { voice: 42 })).rejects.toThrow(/voice setting voice must be a string/);
    // The voice reaches the service's live route: one it does not know is refused there, in its words.
    await expect(electron.invoke(BRIDGE_CHANNELS.liveStart, APP_FRAME, 'espeak-ng', 1, { voice: 'no-such-voice' })).rejects.toThrow(/unknown eSpeak NG voice "no-such-voice"/);
  });

  it('adds the files the person opened to the OS recent documents, only real absolute files', async () => {
    const file = join(work, 'talk.wav');
    writeFileSync(file, 'x');
    await electron.invoke(BRIDGE_CHANNELS.addRecentFiles, APP_FRAME, [file, 'relative.wav', join(work, 'missing.wav'), work, 42]);
    expect(electron.recentDocuments).toEqual([file]);
    await expect(electron.invoke(BRIDGE_CHANNELS.addRecentFiles, APP_FRAME, 'not a list')).rejects.toThrow(/paths must be a list/);
    await expect(electron.invoke(BRIDGE_CHANNELS.addRecentFiles, FOREIGN_FRAME, [file])).rejects.toThrow(/untrusted/);
  });

  it('keeps dictate anywhere\'s settings from the page, checked, and says how the shortcut stands', async () => {
    const first = (await electron.invoke(BRIDGE_CHANNELS.hotkeyGet, APP_FRAME)) as HotkeySettingsView;
    expect(first).toMatchObject({ enabled: true, shortcut: 'Ctrl+Alt+Space', mode: 'hold', insertion: 'paste', model: null });
    // Armed, or not with the reason (here: no display, unless this machine has one).
    expect(first.armed || typeof first.problem === 'string').toBe(true);
    await expect(electron.invoke(BRIDGE_CHANNELS.hotkeySet, APP_FRAME, { mode: 'sometimes' })).rejects.toThrow('mode must be hold or toggle');
    await expect(electron.invoke(BRIDGE_CHANNELS.hotkeySet, FOREIGN_FRAME, { enabled: false })).rejects.toThrow(/untrusted/);
    const off = (await electron.invoke(BRIDGE_CHANNELS.hotkeySet, APP_FRAME, { enabled: false, mode: 'toggle' })) as HotkeySettingsView;
    expect(off).toMatchObject({ enabled: false, mode: 'toggle', armed: false, problem: null });
    expect(JSON.parse(readFileSync(join(work, 'data', 'hotkey.json'), 'utf8'))).toMatchObject({ enabled: false, mode: 'toggle' });
  });

  it('lets the app page record the screen\'s sound for a meeting once it armed it, and refuses every other request', async () => {
    // Chromium's loopback features are on before the app was ready, beside any given already.
    expect(electron.commandLine.getSwitchValue('enable-features').split(',')).toEqual(expect.arrayContaining([...LOOPBACK_FEATURES]));
    const contents = electron.windows[0]!.webContents;
    const ask = (securityOrigin: string, audioRequested = true) =>
      new Promise<unknown>((resolve) => contents.displayMediaHandler!({ securityOrigin, audioRequested }, resolve));
    expect(await ask(APP_ORIGIN)).toBeNull(); // not armed: refused
    await expect(electron.invoke(BRIDGE_CHANNELS.systemAudioArm, FOREIGN_FRAME)).rejects.toThrow(/untrusted/);
    expect(await ask(APP_ORIGIN)).toBeNull();
    await electron.invoke(BRIDGE_CHANNELS.systemAudioArm, APP_FRAME);
    expect(await ask('https://example.com')).toBeNull(); // another origin: refused, and the arming is used up
    expect(await ask(APP_ORIGIN)).toBeNull();
    await electron.invoke(BRIDGE_CHANNELS.systemAudioArm, APP_FRAME);
    expect(await ask(APP_ORIGIN)).toEqual({ video: { id: 'screen:0:0', name: 'Entire screen' }, audio: 'loopback' });
    expect(await ask(APP_ORIGIN)).toBeNull(); // once
  });

  it('shows a running meeting capture on the tray, with a Stop that ends it', { timeout: scaled(120_000) }, async () => {
    const [tray] = electron.trays;
    const started = await api('/v1/captures', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'pocketsphinx-en-us', microphone: 'client', system: 'client' }) });
    expect(started.status).toBe(201);
    const capture = (await started.json()) as Capture;
    await until(
      'the tray to show the capture',
      () => tray!.tooltip,
      (label) => label.startsWith('● Voxdesk — recording a meeting'),
      { ...WAIT, timeoutMs: scaled(20_000) },
    );
    const stop = tray!.menu.find((item) => item.label === 'Stop recording the meeting');
    expect(stop).toBeDefined();
    stop!.click!();
    await until(
      'the capture to end',
      async () => ((await (await api(`/v1/captures/${capture.id}`)).json()) as Capture).status,
      (status) => status === 'done' || status === 'failed',
      { ...WAIT, timeoutMs: scaled(60_000) },
    );
    await until('the tray to stop showing it', () => tray!.tooltip, (label) => !label.startsWith('●'), { ...WAIT, timeoutMs: scaled(20_000) });
  });

  it('checks for updates at start, tells the page when one is ready, and installs it at quit after the service stopped', async () => {
    expect(updater.checks).toBe(1);
    expect(updater.autoDownload).toBe(true);
    expect(updater.autoInstallOnAppQuit).toBe(false);
    updater.emit('update-downloaded', { version: '9.9.9' });
    const [window] = electron.windows;
    expect(window!.webContents.sent).toContainEqual({ channel: BRIDGE_CHANNELS.updateEvent, payload: { state: 'ready', version: '9.9.9' } });

    const workers = electron.utility.forks.map((f) => f.child.pid).filter((pid): pid is number => pid !== undefined);
    expect(workers.length).toBeGreaterThan(0);
    const service = desktop.service!;
    electron.app.quit();
    // The quit waits for the service: not quitted yet, no install yet.
    expect(electron.quitted).toBe(false);
    expect(updater.installs).toEqual([]);
    await until('the install', () => updater.installs.length, (n) => n > 0, WAIT);
    expect(updater.installs).toEqual([{ silent: true, runAfter: false }]);
    expect(desktop.service).toBeNull();
    await expect(fetch(`${service.url}/v1/health`)).rejects.toThrow();
    // No worker process is left behind, and the files made for drags are gone.
    await until('the workers to exit', () => workers.filter(alive), (left) => left.length === 0, { ...WAIT, timeoutMs: scaled(20_000) });
    expect(existsSync(join(work, 'data', 'drag-out'))).toBe(false);
    expect(electron.trays[0]!.destroyed).toBe(true);
  });
});
