/**
 * The main process's side of the preload bridge (common/desktop-bridge.ts, docs/design.md §6.2): every channel checks
 * that its sender is the app's top-level page and every argument (ipc-validate.ts) before doing anything. Native
 * dialogs, the data folder, live playback into the native player, drag-out of exports, the OS's recent documents,
 * dictate anywhere's settings, and arming the system sound of a meeting capture.
 */
import { BRIDGE_CHANNELS, type HotkeySettingsView, type LiveBridgeEvent } from '../common/desktop-bridge.js';
import { APP_PAGE_URL } from './app-protocol.js';
import type { BrowserWindowLike, ElectronApi, IpcInvokeEvent } from './electron-api.js';
import type { ExportDrag } from './export-drag.js';
import { exportFormatArg, jobIdArg, liveVoiceArg, modelIdArg, recentFilesArg, speedArg, textArg } from './ipc-validate.js';
import { LivePlayback } from './player/live-playback.js';
import { isTrustedSender } from './window-security.js';
import type { Log } from '../common/log.js';

export interface BridgeContext {
  serviceUrl: string;
  apiKey: string;
  dataDir: string;
  window(): BrowserWindowLike | null;
  exportDrag: ExportDrag;
  /** The image shown under the pointer while an export is dragged (a path). */
  dragIcon: string;
  log: Log;
  /** Dictate anywhere's settings (desktop-app.ts): read, and changed (the change is checked there). */
  hotkey: { get(): Promise<HotkeySettingsView>; set(change: unknown): Promise<HotkeySettingsView> };
  /** Meeting capture's system sound (system-audio-capture.ts): the page's next getDisplayMedia may be granted. */
  systemAudio: { arm(): void };
}

export interface BridgeIpc {
  /** Ends live playback (at quit). */
  closeLive(): Promise<void>;
}

/** Extensions of audio and video files the native picker offers. */
const PICKABLE = ['wav', 'mp3', 'm4a', 'flac', 'ogg', 'opus', 'webm', 'mp4', 'aac'];

export function registerBridgeIpc(electron: Pick<ElectronApi, 'ipcMain' | 'dialog' | 'shell' | 'app'>, ctx: BridgeContext): BridgeIpc {
  const { ipcMain, dialog, shell, app } = electron;
  let live: LivePlayback | null = null;
  const trusted = (event: IpcInvokeEvent): boolean => isTrustedSender(event.senderFrame, APP_PAGE_URL);
  const guard =
    <A extends unknown[], R>(handler: (...args: A) => R | Promise<R>) =>
    (event: IpcInvokeEvent, ...args: unknown[]): R | Promise<R> => {
      if (!trusted(event)) throw new Error('IPC from an untrusted frame');
      return handler(...(args as A));
    };
  const emit = (event: LiveBridgeEvent): void => ctx.window()?.webContents.send(BRIDGE_CHANNELS.liveEvent, event);

  ipcMain.on(BRIDGE_CHANNELS.config, (event) => {
    event.returnValue = trusted(event) ? { serviceUrl: ctx.serviceUrl, apiKey: ctx.apiKey, dataDir: ctx.dataDir, platform: process.platform } : null;
  });
  ipcMain.handle(
    BRIDGE_CHANNELS.pickFiles,
    guard(async () => {
      const window = ctx.window();
      if (!window) return [];
      const result = await dialog.showOpenDialog(window, { properties: ['openFile', 'multiSelections'], filters: [{ name: 'Audio and video', extensions: PICKABLE }] });
      if (result.canceled) return [];
      for (const path of result.filePaths) app.addRecentDocument(path);
      return result.filePaths.map((path) => ({ path, name: path.split(/[\\/]/).pop() ?? path, bytes: 0 }));
    }),
  );
  ipcMain.handle(
    BRIDGE_CHANNELS.pickFolder,
    guard(async () => {
      const window = ctx.window();
      if (!window) return null;
      const result = await dialog.showOpenDialog(window, { properties: ['openDirectory'] });
      return result.canceled ? null : (result.filePaths[0] ?? null);
    }),
  );
  ipcMain.handle(
    BRIDGE_CHANNELS.openDataDir,
    guard(async () => {
      await shell.openPath(ctx.dataDir);
    }),
  );
  ipcMain.handle(
    BRIDGE_CHANNELS.addRecentFiles,
    guard((paths: unknown) => {
      for (const path of recentFilesArg(paths)) app.addRecentDocument(path);
    }),
  );
  // ipcRenderer.send: the drag must start while the pointer is still down, so the page does not wait for an answer.
  ipcMain.on(BRIDGE_CHANNELS.startExportDrag, (event, jobId: unknown, format: unknown) => {
    if (!trusted(event)) return;
    let id: string;
    let as: ReturnType<typeof exportFormatArg>;
    try {
      id = jobIdArg(jobId);
      as = exportFormatArg(format);
    } catch (error) {
      ctx.log.info(`drag-out refused: ${(error as Error).message}`);
      return;
    }
    ctx.exportDrag.file(id, as).then(
      (file) => event.sender.startDrag({ file, icon: ctx.dragIcon }),
      (error: unknown) => ctx.log.info(`drag-out of ${id} as ${as}: ${error instanceof Error ? error.message : String(error)}`),
    );
  });
  ipcMain.handle(
    BRIDGE_CHANNELS.liveStart,
    guard(async (modelId: unknown, speed: unknown, voice: unknown) => {
      const id = modelIdArg(modelId);
      const rate = speedArg(speed);
      const query = liveVoiceArg(voice);
      await live?.close();
      live = null;
      // The session's PCM16 frames into the naudiodon player.
      const playback = await LivePlayback.open({ serviceUrl: ctx.serviceUrl, apiKey: ctx.apiKey, modelId: id, speed: rate, query });
      playback.on('event', (event) => {
        emit(event);
        if (event.type === 'closed' && live === playback) live = null;
      });
      live = playback;
      emit({ type: 'session', sampleRate: playback.sampleRate });
      return { sampleRate: playback.sampleRate };
    }),
  );
  ipcMain.handle(BRIDGE_CHANNELS.liveSpeak, guard((text: unknown) => live?.speak(textArg(text))));
  ipcMain.handle(BRIDGE_CHANNELS.liveSpeed, guard((speed: unknown) => live?.setSpeed(speedArg(speed))));
  ipcMain.handle(BRIDGE_CHANNELS.liveStop, guard(() => live?.cancel()));
  ipcMain.handle(BRIDGE_CHANNELS.hotkeyGet, guard(() => ctx.hotkey.get()));
  ipcMain.handle(BRIDGE_CHANNELS.hotkeySet, guard((change: unknown) => ctx.hotkey.set(change)));
  ipcMain.handle(BRIDGE_CHANNELS.systemAudioArm, guard(() => ctx.systemAudio.arm()));
  return {
    async closeLive() {
      const playing = live;
      live = null;
      await playing?.close();
    },
  };
}
