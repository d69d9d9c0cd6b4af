/**
 * The Settings tab's watch-folder form: a draft → the folder the PUT takes, with the plain checks made before
 * anything is sent (the service checks again and names the field), and the saved list → what a PUT re-sends (the
 * status is read-only and not sent back).
 */
import type { WatchFolder, WatchFolderInput, WatchFolderStatus } from '$common/watch-folder-types.js';

export interface WatchFolderDraft {
  path: string;
  model: string;
  outputDir: string;
  formats: string[];
}

/** Formats ticked in a new folder. Default: SRT (subtitles) and TXT. */
export const DEFAULT_FORMATS: readonly string[] = ['srt', 'txt'];

/** Absolute on Linux/macOS (`/…`) or Windows (`C:\…`, `\\server\share`). */
export function looksAbsolute(path: string): boolean {
  return path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\');
}

export function folderFromDraft(draft: WatchFolderDraft): { folder: WatchFolderInput } | { error: string } {
  const path = draft.path.trim();
  const outputDir = draft.outputDir.trim();
  if (!path) return { error: 'Choose the folder to watch.' };
  if (!looksAbsolute(path)) return { error: `The folder must be a full path, such as /home/me/Recordings (got “${path}”).` };
  if (outputDir && !looksAbsolute(outputDir)) return { error: `The output folder must be a full path (got “${outputDir}”).` };
  if (!draft.model) return { error: 'Choose a speech recognition model (download one on the Models tab).' };
  if (draft.formats.length === 0) return { error: 'Tick at least one format to write.' };
  return { folder: { path, model: draft.model, formats: [...draft.formats], ...(outputDir ? { output_dir: outputDir } : {}) } };
}

/** The saved folders as a PUT body re-sends them. */
export function inputsOf(folders: readonly WatchFolder[]): WatchFolderInput[] {
  return folders.map(({ path, model, params, output_dir, formats }) => ({ path, model, params, output_dir, formats }));
}

/** One line of counts, e.g. "3 done · 1 in the queue · 1 failed". */
export function describeCounts(status: WatchFolderStatus): string {
  const parts = [
    [status.files_done, 'done'],
    [status.files_queued, 'in the queue'],
    [status.files_waiting, 'waiting to finish copying'],
    [status.files_failed, 'failed'],
    [status.files_skipped, 'skipped as copies'],
  ] as const;
  const shown = parts.filter(([n]) => n > 0).map(([n, label]) => `${n} ${label}`);
  return shown.length ? shown.join(' · ') : 'No recordings yet';
}

export const STATE_LABEL: Record<WatchFolderStatus['state'], string> = {
  starting: 'Starting',
  scanning: 'Looking through',
  watching: 'Watching',
  error: 'Problem',
};
