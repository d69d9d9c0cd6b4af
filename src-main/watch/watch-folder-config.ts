/**
 * The watch folders a person configured, kept as the `watch_folders` setting (a JSON list; the API's route checks
 * each before it is saved), and the timings of the watcher with their defaults.
 */
import type { AsyncSettingsRepo } from '../store/store.js';

/** Settings key of the folder list. */
export const WATCH_FOLDERS_SETTING = 'watch_folders';

/** One folder as saved: params as the person sent them (defaults are filled in when a job is made). */
export interface WatchFolderConfig {
  path: string;
  model: string;
  params: Record<string, unknown>;
  output_dir: string | null;
  formats: string[];
}

export async function readWatchFolders(settings: AsyncSettingsRepo): Promise<WatchFolderConfig[]> {
  return (await settings.get<WatchFolderConfig[]>(WATCH_FOLDERS_SETTING)) ?? [];
}

export function saveWatchFolders(settings: AsyncSettingsRepo, folders: readonly WatchFolderConfig[]): Promise<void> {
  return settings.set(WATCH_FOLDERS_SETTING, folders);
}

export function sameConfig(a: WatchFolderConfig, b: WatchFolderConfig): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export interface WatchTimings {
  /** A file is taken once its size has not changed for this long. Default 2000 ms (a stalled copy or recorder). */
  stabilityMs: number;
  /** How often a growing file's size is checked. Default 250 ms. */
  pollMs: number;
  /** How often each watched folder is checked to still be there and readable. Default 5000 ms. */
  healthCheckMs: number;
  /** First wait before a folder in error is tried again; doubles each time. Default 2000 ms. */
  retryMinMs: number;
  /** Longest wait between two tries. Default 60 000 ms. */
  retryMaxMs: number;
}

export const DEFAULT_WATCH_TIMINGS: WatchTimings = { stabilityMs: 2000, pollMs: 250, healthCheckMs: 5000, retryMinMs: 2000, retryMaxMs: 60_000 };

/** The wait before try number `attempt` (1, 2, …) of a folder in error. */
export function retryDelay(timings: WatchTimings, attempt: number): number {
  return Math.min(timings.retryMaxMs, timings.retryMinMs * 2 ** Math.max(0, attempt - 1));
}
