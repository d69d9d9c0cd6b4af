/**
 * The ONE typed contract of what crosses the Electron preload bridge (`window.voxdesk`, docs/design.md §6.2). The
 * preload implements it; the renderer reads it. In browser mode (`voxdesk serve --ui`) it is absent and the
 * renderer logs in with the one-time token of the printed address (/v1/session/bootstrap) and plays through Web Audio.
 */

/**
 * IPC channel names, each `voxdesk:` and its name in kebab case (the sandboxed preload, which cannot import this module,
 * makes them by that rule); the main process validates the sender of each.
 */
export const BRIDGE_CHANNELS = {
  /** Synchronous: {serviceUrl, apiKey, dataDir, platform} for the page being set up. */
  config: 'voxdesk:config',
  pickFiles: 'voxdesk:pick-files',
  pickFolder: 'voxdesk:pick-folder',
  openDataDir: 'voxdesk:open-data-dir',
  liveStart: 'voxdesk:live-start',
  liveSpeak: 'voxdesk:live-speak',
  liveSpeed: 'voxdesk:live-speed',
  liveStop: 'voxdesk:live-stop',
  liveEvent: 'voxdesk:live-event',
  /** Fire-and-forget (ipcRenderer.send): drag an export of a transcription out to the file manager. */
  startExportDrag: 'voxdesk:start-export-drag',
  /** Files the person worked on, for the OS's recent documents. */
  addRecentFiles: 'voxdesk:add-recent-files',
  /** Main → page: the update state. */
  updateEvent: 'voxdesk:update-event',
  /** Main → page: a system notification was clicked; open this job or batch. */
  openWork: 'voxdesk:open-work',
  /** Dictate anywhere: the settings and whether the global shortcut is armed; a change applies them at once. */
  hotkeyGet: 'voxdesk:hotkey-get',
  hotkeySet: 'voxdesk:hotkey-set',
  /** Meeting capture on Windows and macOS: the page's next getDisplayMedia gets the screen's sound, without a picker. */
  systemAudioArm: 'voxdesk:system-audio-arm',
} as const;
export type BridgeChannelName = keyof typeof BRIDGE_CHANNELS;
export type BridgeChannel = (typeof BRIDGE_CHANNELS)[keyof typeof BRIDGE_CHANNELS];

export interface PickedFile {
  path: string;
  name: string;
  bytes: number;
}

/** Events the native live playback reports back to the page. */
export type LiveBridgeEvent =
  | { type: 'session'; sampleRate: number }
  | { type: 'audio'; samples: number }
  | { type: 'done'; cancelled: boolean }
  | { type: 'error'; code: string; message: string }
  | { type: 'closed' };

/** The state of updates (app/update-policy.ts): a new version downloads in the background and installs at quit. */
export type UpdateBridgeEvent =
  | { state: 'idle' }
  | { state: 'downloading'; version: string; percent: number }
  /** Downloaded: installed when the person quits Voxdesk (never while a job runs). */
  | { state: 'ready'; version: string }
  | { state: 'error'; message: string };

/** Dictate anywhere (docs/capture.md): the desktop app's settings for the global shortcut, and how it stands. */
export interface HotkeySettingsView {
  enabled: boolean;
  /** As people write it: "Ctrl+Alt+Space". */
  shortcut: string;
  /** hold: listening while the shortcut is held; toggle: a press starts, the next stops. */
  mode: 'hold' | 'toggle';
  /** paste: through the clipboard (given back afterwards); type: key by key. */
  insertion: 'paste' | 'type';
  /** The live model chosen; null: the first on-device live speech model. */
  model: string | null;
  /** Whether the shortcut is being watched now. */
  armed: boolean;
  /** Why it is not (no display, Wayland, a missing permission or library, a shortcut that cannot be read, no model). */
  problem: string | null;
  /** The model a dictation would use now. */
  activeModel: string | null;
}

/** What a click on a system notification opens. */
export interface OpenWorkEvent {
  jobId: string | null;
  batchId: string | null;
}

/** The export formats a transcription can be dragged out as (common/transcript-formats.ts TRANSCRIPT_FORMATS). */
export type DragFormat = 'txt' | 'srt' | 'vtt' | 'json' | 'docx';

export interface DesktopBridge {
  serviceUrl: string;
  apiKey: string;
  dataDir: string;
  platform: string;
  /** Native open dialog; [] when dismissed. */
  pickFiles(): Promise<PickedFile[]>;
  /** Native folder dialog; null when dismissed. */
  pickFolder(): Promise<string | null>;
  openDataDir(): Promise<void>;
  live: {
    /**
     * Opens a live session on the service and a native player; resolves with the session's sample rate. `voice`: the
     * live route's voice settings (`voice`, `speaker`, `language`, `pitch`: a model's own voice, an eSpeak variant, a
     * saved designed or cloned voice's id), as the page in a browser puts them in the socket's query.
     */
    start(modelId: string, speed: number, voice?: Readonly<Record<string, string>>): Promise<{ sampleRate: number }>;
    speak(text: string): Promise<void>;
    setSpeed(speed: number): Promise<void>;
    stop(): Promise<void>;
    /** Subscribe to playback events; returns the unsubscribe function. */
    onEvent(listener: (event: LiveBridgeEvent) => void): () => void;
  };
  /**
   * Starts dragging the export of a succeeded transcription (`format` of its latest revision, named as its Export
   * button names it) out of the window: call it from the element's `dragstart` handler after `preventDefault()`.
   * Nothing happens for a job that cannot be exported (the drop is simply not offered).
   */
  startExportDrag(jobId: string, format: DragFormat): void;
  /**
   * The path of a dropped or picked File (Electron's webUtils.getPathForFile); '' when it has none (made in the page).
   */
  pathForFile(file: File): string;
  /** Adds files the person opened to the OS's recent documents (absolute paths of existing files; at most 50 a call). */
  addRecentFiles(paths: string[]): Promise<void>;
  /** The update state now and on every change; returns the unsubscribe function. */
  onUpdate(listener: (event: UpdateBridgeEvent) => void): () => void;
  /** A click on a system notification about finished work; returns the unsubscribe function. */
  onOpenWork(listener: (event: OpenWorkEvent) => void): () => void;
  /** Dictate anywhere: the global shortcut's settings; `set` takes the changed ones and answers how it stands then. */
  hotkey: {
    get(): Promise<HotkeySettingsView>;
    set(change: Partial<Pick<HotkeySettingsView, 'enabled' | 'shortcut' | 'mode' | 'insertion' | 'model'>>): Promise<HotkeySettingsView>;
  };
  /**
   * Meeting capture where the service cannot record the computer's sound (Windows, macOS): arms the app so that the
   * page's next getDisplayMedia, within a few seconds, is answered with the screen and its sound, without a picker.
   */
  armSystemAudio(): Promise<void>;
}
