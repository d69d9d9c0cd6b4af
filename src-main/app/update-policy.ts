/**
 * Updates the way desktop apps get them (issue 35.6), through electron-updater against the GitHub releases the desktop
 * workflow publishes (electron-builder.yml `publish`): checked once at start, downloaded in the background, installed
 * when the person quits — after the service has stopped, so never while a job runs (the graceful quit lets running
 * jobs finish or returns them to the queue first; they continue after the update). Nothing is checked in a build that
 * is not packaged (`npm run app`): there is no installed copy to replace. A failed check or download is logged and
 * shown to the page; the app goes on as it is.
 *
 * Written against the shape of electron-updater's AppUpdater (UpdaterLike) so it is tested under Node.
 */
import type { UpdateBridgeEvent } from '../common/desktop-bridge.js';
import type { Log } from '../common/log.js';

/** What this module uses of electron-updater's `autoUpdater`. */
export interface UpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  checkForUpdates(): Promise<unknown>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
  on(event: 'update-available' | 'update-downloaded', listener: (info: { version: string }) => void): unknown;
  on(event: 'download-progress', listener: (progress: { percent: number }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export interface UpdatePolicyOptions {
  updater: UpdaterLike;
  /** False in `npm run app`: no check. */
  packaged: boolean;
  /** Where the state goes (the page, through the bridge). */
  report: (event: UpdateBridgeEvent) => void;
  log: Log;
}

export class UpdatePolicy {
  private downloaded: string | null = null;
  private last: UpdateBridgeEvent = { state: 'idle' };

  constructor(private readonly options: UpdatePolicyOptions) {
    const { updater } = options;
    updater.autoDownload = true;
    // Installed by installIfReady() once the service has stopped, not by the library on its own at quit.
    updater.autoInstallOnAppQuit = false;
    updater.on('update-available', (info) => this.set({ state: 'downloading', version: info.version, percent: 0 }));
    updater.on('download-progress', (progress) => {
      if (this.last.state === 'downloading') this.set({ ...this.last, percent: Math.round(progress.percent) });
    });
    updater.on('update-downloaded', (info) => {
      this.downloaded = info.version;
      this.set({ state: 'ready', version: info.version });
    });
    updater.on('error', (error) => {
      options.log.info(`updates: ${error.message}`);
      this.set({ state: 'error', message: error.message });
    });
  }

  /** The state the page shows (also sent to it on every change). */
  get state(): UpdateBridgeEvent {
    return this.last;
  }

  /** At start: one check; a new version downloads in the background. */
  checkAtStart(): void {
    if (!this.options.packaged) return;
    this.options.updater.checkForUpdates().catch((error: unknown) => {
      // Offline, or no release yet: the 'error' event has said so.
      this.options.log.info(`updates: the check failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  /**
   * At quit, once the service is closed (no job runs any more): installs a downloaded update and quits. True when it
   * did (the installer takes over the quit), false when there was nothing to install.
   */
  installIfReady(): boolean {
    if (!this.downloaded) return false;
    this.options.log.info(`updates: installing ${this.downloaded} at quit`);
    // Silent where the platform allows it; the app is not started again (the person quit it).
    this.options.updater.quitAndInstall(true, false);
    return true;
  }

  private set(event: UpdateBridgeEvent): void {
    this.last = event;
    this.options.report(event);
  }
}
