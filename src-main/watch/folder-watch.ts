/**
 * One watched folder: a chokidar watcher over it (subfolders included), reporting each recording once it has stopped
 * growing — at start for the files already there (added while Voxdesk was closed), then as files appear or change.
 * chokidar's awaitWriteFinish is the stability check: a file is reported after its size has stayed the same for
 * `stabilityMs`.
 *
 * A folder that is missing, not a folder, or unreadable — at start or later (deleted, renamed, a drive unplugged) —
 * puts the watch in `error` with a message, closes the watcher and tries again with a doubling wait (retryDelay); a
 * timer checks every `healthCheckMs` that the folder is still the same readable folder (inotify does not notice a
 * folder deleted and made again). When it is back it is watched again, and the files that arrived meanwhile are
 * found by the new watcher's first listing. Nothing here throws into the event loop.
 */
import { watch, type FSWatcher } from 'chokidar';
import type { Stats } from 'node:fs';
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { WatchFolderState } from '../common/watch-folder-types.js';
import { retryDelay, type WatchFolderConfig, type WatchTimings } from './watch-folder-config.js';
import { isIgnoredName, isInIgnoredFolder, isWatchableFile } from './watchable-files.js';
import type { Log } from '../common/log.js';

export interface FolderProblem {
  code: string;
  message: string;
}

export interface FolderWatchHooks {
  /** A recording that has stopped growing (appeared, was there at start, or changed). */
  onFile(path: string, folder: FolderWatch): void;
  /** The folder's settings problem (holdFiles) is to be tried again. */
  onRetryHeld(folder: FolderWatch): void;
  log: Log;
  now(): Date;
}

/** The folder's trouble, or null when it is a folder this process can list and read. */
export async function folderProblem(path: string): Promise<FolderProblem | null> {
  let info: Stats;
  try {
    info = await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      return { code: 'folder_missing', message: `the folder ${path} does not exist (deleted, renamed, or on a drive that is not mounted)` };
    }
    return { code: 'folder_unreadable', message: `the folder ${path} cannot be read: ${(error as Error).message}` };
  }
  if (!info.isDirectory()) return { code: 'folder_not_directory', message: `${path} is a file, not a folder` };
  try {
    await access(path, constants.R_OK | constants.X_OK);
  } catch {
    return { code: 'folder_unreadable', message: `the folder ${path} cannot be read (permission denied)` };
  }
  return null;
}

async function identity(path: string): Promise<string | null> {
  return stat(path).then(
    (s) => `${s.dev}:${s.ino}`,
    () => null,
  );
}

export class FolderWatch {
  private state: WatchFolderState = 'starting';
  private problem: FolderProblem | null = null;
  /** A problem of the folder's settings (its model), found when a file was checked; the watcher keeps running. */
  private held: FolderProblem | null = null;
  private nextRetry: Date | null = null;
  private heldRetryAt: Date | null = null;
  private lastScan: Date | null = null;
  private watcher: FSWatcher | null = null;
  private watchedIdentity: string | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private heldTimer: NodeJS.Timeout | null = null;
  private healthTimer: NodeJS.Timeout | null = null;
  private attempts = 0;
  private heldAttempts = 0;
  private stopped = false;
  private opening: Promise<void> | null = null;

  constructor(
    readonly config: WatchFolderConfig,
    private readonly timings: WatchTimings,
    private readonly hooks: FolderWatchHooks,
  ) {}

  get path(): string {
    return this.config.path;
  }

  /** Starts watching; resolves once the folder was checked (an error is then in the status, never thrown). */
  start(): Promise<void> {
    this.healthTimer = setInterval(() => void this.healthCheck(), this.timings.healthCheckMs);
    this.healthTimer.unref();
    return this.open();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of [this.retryTimer, this.heldTimer]) if (timer) clearTimeout(timer);
    if (this.healthTimer) clearInterval(this.healthTimer);
    this.retryTimer = this.heldTimer = this.healthTimer = null;
    await this.opening?.catch(() => undefined);
    await this.closeWatcher();
  }

  /** What the status shows: the folder's own problem first, then a settings problem. */
  view(): { state: WatchFolderState; error: FolderProblem | null; nextRetryAt: Date | null; lastScanAt: Date | null } {
    const error = this.problem ?? this.held;
    const nextRetryAt = this.problem ? this.nextRetry : this.held ? this.heldRetryAt : null;
    return { state: error ? 'error' : this.state, error, nextRetryAt, lastScanAt: this.lastScan };
  }

  /**
   * The folder's settings cannot make jobs now (its model was removed, …): shown as the folder's error and tried
   * again with the doubling wait (hooks.onRetryHeld) until released.
   */
  holdFiles(problem: FolderProblem): void {
    if (this.stopped) return;
    this.held = problem;
    if (this.heldTimer) return;
    this.heldAttempts++;
    const delay = retryDelay(this.timings, this.heldAttempts);
    this.heldRetryAt = new Date(this.hooks.now().getTime() + delay);
    this.heldTimer = setTimeout(() => {
      this.heldTimer = null;
      this.heldRetryAt = null;
      if (!this.stopped) this.hooks.onRetryHeld(this);
    }, delay);
    this.heldTimer.unref();
  }

  /** The settings work again. */
  releaseFiles(): void {
    this.held = null;
    this.heldAttempts = 0;
  }

  private open(): Promise<void> {
    this.opening = this.openNow().finally(() => (this.opening = null));
    return this.opening;
  }

  private async openNow(): Promise<void> {
    if (this.stopped) return;
    const problem = await folderProblem(this.path);
    if (this.stopped) return;
    if (problem) return this.fail(problem);
    this.watchedIdentity = await identity(this.path);
    this.state = 'scanning';
    this.problem = null;
    this.nextRetry = null;
    const root = this.path;
    const watcher = watch(root, {
      persistent: true,
      ignoreInitial: false,
      followSymlinks: false,
      ignorePermissionErrors: true,
      awaitWriteFinish: { stabilityThreshold: this.timings.stabilityMs, pollInterval: this.timings.pollMs },
      ignored: (path: string, stats?: Stats) => {
        if (path === root) return false;
        if (isIgnoredName(basename(path)) || isInIgnoredFolder(root, path)) return true;
        return stats?.isFile() === true && !isWatchableFile(path);
      },
    });
    this.watcher = watcher;
    const report = (path: string): void => {
      if (this.watcher === watcher && isWatchableFile(path) && !isInIgnoredFolder(root, path)) this.hooks.onFile(path, this);
    };
    watcher.on('add', report);
    watcher.on('change', report);
    watcher.on('ready', () => {
      if (this.watcher !== watcher) return;
      this.state = 'watching';
      this.lastScan = this.hooks.now();
      this.attempts = 0;
    });
    watcher.on('unlinkDir', (path) => {
      if (path === root) void this.healthCheck();
    });
    watcher.on('error', (error) => {
      this.hooks.log.info(`watch folder ${root}: ${(error as Error).message}`);
      void this.healthCheck();
    });
  }

  /** The folder went away, or became unreadable, or is another folder of the same name: close and retry. */
  private async healthCheck(): Promise<void> {
    if (this.stopped || !this.watcher || this.opening) return;
    const watcher = this.watcher;
    const problem = (await folderProblem(this.path)) ?? ((await identity(this.path)) !== this.watchedIdentity ? { code: 'folder_replaced', message: '' } : null);
    if (!problem || this.stopped || this.watcher !== watcher) return;
    await this.closeWatcher();
    if (problem.code === 'folder_replaced') {
      // Deleted and made again (or a drive swapped): watch the new one at once.
      await this.open();
      return;
    }
    this.fail(problem);
  }

  private fail(problem: FolderProblem): void {
    if (this.stopped) return;
    this.attempts++;
    const delay = retryDelay(this.timings, this.attempts);
    this.state = 'error';
    this.problem = problem;
    this.nextRetry = new Date(this.hooks.now().getTime() + delay);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.open();
    }, delay);
    this.retryTimer.unref();
  }

  private async closeWatcher(): Promise<void> {
    const watcher = this.watcher;
    this.watcher = null;
    if (watcher) await watcher.close().catch((error: Error) => this.hooks.log.info(`watch folder ${this.path}: closing: ${error.message}`));
  }
}
