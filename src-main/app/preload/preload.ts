/**
 * Preload (sandboxed, CommonJS — a sandboxed preload cannot load ES modules or local files): exposes the ONE
 * typed bridge `window.voxdesk` (common/desktop-bridge.ts). Channel names are repeated here because the sandbox
 * cannot require the shared module; test/unit/app/shell-logic.test.ts keeps them equal to BRIDGE_CHANNELS.
 */
// A sandboxed preload is CommonJS; verbatimModuleSyntax spells a CommonJS import this way.
// eslint-disable-next-line @typescript-eslint/no-require-imports
import electron = require('electron');
import type { IpcRendererEvent } from 'electron';
import type { DesktopBridge, DragFormat, HotkeySettingsView, LiveBridgeEvent, OpenWorkEvent, PickedFile, UpdateBridgeEvent } from '../../common/desktop-bridge.js';

const { contextBridge, ipcRenderer, webUtils } = electron;

const CHANNELS = {
  config: 'voxdesk:config',
  pickFiles: 'voxdesk:pick-files',
  pickFolder: 'voxdesk:pick-folder',
  openDataDir: 'voxdesk:open-data-dir',
  liveStart: 'voxdesk:live-start',
  liveSpeak: 'voxdesk:live-speak',
  liveSpeed: 'voxdesk:live-speed',
  liveStop: 'voxdesk:live-stop',
  liveEvent: 'voxdesk:live-event',
  startExportDrag: 'voxdesk:start-export-drag',
  addRecentFiles: 'voxdesk:add-recent-files',
  updateEvent: 'voxdesk:update-event',
  openWork: 'voxdesk:open-work',
  hotkeyGet: 'voxdesk:hotkey-get',
  hotkeySet: 'voxdesk:hotkey-set',
  systemAudioArm: 'voxdesk:system-audio-arm',
} as const;

/** Subscribes the page to one main → page channel without ever handing it the IpcRendererEvent (it would leak ipcRenderer). */
function subscribe<T>(channel: string, listener: (payload: T) => void): () => void {
  const wrapped = (_event: IpcRendererEvent, payload: T): void => listener(payload);
  ipcRenderer.on(channel, wrapped);
  return () => void ipcRenderer.removeListener(channel, wrapped);
}

const config = ipcRenderer.sendSync(CHANNELS.config) as { serviceUrl: string; apiKey: string; dataDir: string; platform: string } | null;

if (config) {
  const bridge: DesktopBridge = {
    serviceUrl: config.serviceUrl,
    apiKey: config.apiKey,
    dataDir: config.dataDir,
    platform: config.platform,
    pickFiles: () => ipcRenderer.invoke(CHANNELS.pickFiles) as Promise<PickedFile[]>,
    pickFolder: () => ipcRenderer.invoke(CHANNELS.pickFolder) as Promise<string | null>,
    openDataDir: () => ipcRenderer.invoke(CHANNELS.openDataDir) as Promise<void>,
    live: {
      start: (modelId, speed, voice) => ipcRenderer.invoke(CHANNELS.liveStart, String(modelId), Number(speed), voice ? { ...voice } : {}) as Promise<{ sampleRate: number }>,
      speak: (text) => ipcRenderer.invoke(CHANNELS.liveSpeak, String(text)) as Promise<void>,
      setSpeed: (speed) => ipcRenderer.invoke(CHANNELS.liveSpeed, Number(speed)) as Promise<void>,
      stop: () => ipcRenderer.invoke(CHANNELS.liveStop) as Promise<void>,
      onEvent: (listener) => subscribe<LiveBridgeEvent>(CHANNELS.liveEvent, listener),
    },
    startExportDrag: (jobId, format: DragFormat) => ipcRenderer.send(CHANNELS.startExportDrag, String(jobId), String(format)),
    pathForFile: (file) => {
      try {
        return webUtils.getPathForFile(file);
      } catch {
        return '';
      }
    },
    addRecentFiles: (paths) => ipcRenderer.invoke(CHANNELS.addRecentFiles, Array.isArray(paths) ? paths.map(String) : []) as Promise<void>,
    onUpdate: (listener) => subscribe<UpdateBridgeEvent>(CHANNELS.updateEvent, listener),
    onOpenWork: (listener) => subscribe<OpenWorkEvent>(CHANNELS.openWork, listener),
    hotkey: {
      get: () => ipcRenderer.invoke(CHANNELS.hotkeyGet) as Promise<HotkeySettingsView>,
      set: (change) => ipcRenderer.invoke(CHANNELS.hotkeySet, { ...change }) as Promise<HotkeySettingsView>,
    },
    armSystemAudio: () => ipcRenderer.invoke(CHANNELS.systemAudioArm) as Promise<void>,
  };
  contextBridge.exposeInMainWorld('voxdesk', bridge);
}
