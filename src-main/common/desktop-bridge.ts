/**
 * The ONE typed contract of what crosses the Electron preload bridge (`window.voxdesk`, docs/design.md §6.2). The
 * preload implements it; the renderer reads it. In browser mode (`voxdesk serve --ui`) it is absent and the
 * renderer logs in with the one-time token of the printed address (/v1/session/bootstrap) and plays through Web Audio.
 */

/** IPC channel names; the main process validates the sender of each. */
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
} as const;
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
    /** Opens a live session on the service and a native player; resolves with the session's sample rate. */
    start(modelId: string, speed: number): Promise<{ sampleRate: number }>;
    speak(text: string): Promise<void>;
    setSpeed(speed: number): Promise<void>;
    stop(): Promise<void>;
    /** Subscribe to playback events; returns the unsubscribe function. */
    onEvent(listener: (event: LiveBridgeEvent) => void): () => void;
  };
}
