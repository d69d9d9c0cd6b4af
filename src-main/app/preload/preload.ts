/**
 * Preload (sandboxed, CommonJS — a sandboxed preload cannot load ES modules or local files): exposes the ONE
 * typed bridge `window.voxdesk` (common/desktop-bridge.ts). The sandbox cannot require the shared module, so the
 * channels are made here by the rule BRIDGE_CHANNELS follows; test/unit/app/shell-logic.test.ts runs this file with
 * Electron replaced and checks every channel it uses against BRIDGE_CHANNELS.
 */
// A sandboxed preload is CommonJS; verbatimModuleSyntax spells a CommonJS import this way.
// eslint-disable-next-line @typescript-eslint/no-require-imports
import electron = require('electron');
import type { IpcRendererEvent } from 'electron';
import type { BridgeChannelName, DesktopBridge, DragFormat, HotkeySettingsView, LiveBridgeEvent, OpenWorkEvent, PickedFile, UpdateBridgeEvent } from '../../common/desktop-bridge.js';

const { contextBridge, ipcRenderer, webUtils } = electron;

/** A bridge name's channel, by the rule BRIDGE_CHANNELS follows: `voxdesk:` and the name in kebab case. */
const channel = (name: BridgeChannelName): string => `voxdesk:${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;

/** Subscribes the page to one main → page channel without ever handing it the IpcRendererEvent (it would leak ipcRenderer). */
function subscribe<T>(channel: string, listener: (payload: T) => void): () => void {
  const wrapped = (_event: IpcRendererEvent, payload: T): void => listener(payload);
  ipcRenderer.on(channel, wrapped);
  return () => void ipcRenderer.removeListener(channel, wrapped);
}

const config = ipcRenderer.sendSync(channel('config')) as { serviceUrl: string; apiKey: string; dataDir: string; platform: string } | null;

if (config) {
  const bridge: DesktopBridge = {
    serviceUrl: config.serviceUrl,
    apiKey: config.apiKey,
    dataDir: config.dataDir,
    platform: config.platform,
    pickFiles: () => ipcRenderer.invoke(channel('pickFiles')) as Promise<PickedFile[]>,
    pickFolder: () => ipcRenderer.invoke(channel('pickFolder')) as Promise<string | null>,
    openDataDir: () => ipcRenderer.invoke(channel('openDataDir')) as Promise<void>,
    live: {
      start: (modelId, speed, voice) => ipcRenderer.invoke(channel('liveStart'), String(modelId), Number(speed), voice ? { ...voice } : {}) as Promise<{ sampleRate: number }>,
      speak: (text) => ipcRenderer.invoke(channel('liveSpeak'), String(text)) as Promise<void>,
      setSpeed: (speed) => ipcRenderer.invoke(channel('liveSpeed'), Number(speed)) as Promise<void>,
      stop: () => ipcRenderer.invoke(channel('liveStop')) as Promise<void>,
      onEvent: (listener) => subscribe<LiveBridgeEvent>(channel('liveEvent'), listener),
    },
    startExportDrag: (jobId, format: DragFormat) => ipcRenderer.send(channel('startExportDrag'), String(jobId), String(format)),
    pathForFile: (file) => {
      try {
        return webUtils.getPathForFile(file);
      } catch {
        return '';
      }
    },
    addRecentFiles: (paths) => ipcRenderer.invoke(channel('addRecentFiles'), Array.isArray(paths) ? paths.map(String) : []) as Promise<void>,
    onUpdate: (listener) => subscribe<UpdateBridgeEvent>(channel('updateEvent'), listener),
    onOpenWork: (listener) => subscribe<OpenWorkEvent>(channel('openWork'), listener),
    hotkey: {
      get: () => ipcRenderer.invoke(channel('hotkeyGet')) as Promise<HotkeySettingsView>,
      set: (change) => ipcRenderer.invoke(channel('hotkeySet'), { ...change }) as Promise<HotkeySettingsView>,
    },
    armSystemAudio: () => ipcRenderer.invoke(channel('systemAudioArm')) as Promise<void>,
  };
  contextBridge.exposeInMainWorld('voxdesk', bridge);
}
