/**
 * The Settings tab's watch-folder form: a draft → the folder the PUT takes, with the plain checks made before
 * anything is sent (the service checks again and names the field), and the saved list → what a PUT re-sends (the
 * status is read-only and not sent back).
 */
import type { WatchFolder, WatchFolderInput, WatchFolderStatus } from '$common/watch-folder-types.js';
import { describeError } from '../shared/error-messages.js';
import { formatTime } from '../shared/format.js';
import { t } from '../shared/i18n/i18n.svelte.js';

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
  if (!path) return { error: t('watch.form.noPath') };
  if (!looksAbsolute(path)) return { error: t('watch.form.notAbsolute', { path }) };
  if (outputDir && !looksAbsolute(outputDir)) return { error: t('watch.form.outputNotAbsolute', { path: outputDir }) };
  if (!draft.model) return { error: t('watch.form.noModel') };
  if (draft.formats.length === 0) return { error: t('watch.form.noFormat') };
  return { folder: { path, model: draft.model, formats: [...draft.formats], ...(outputDir ? { output_dir: outputDir } : {}) } };
}

/** The saved folders as a PUT body re-sends them. */
export function inputsOf(folders: readonly WatchFolder[]): WatchFolderInput[] {
  return folders.map(({ path, model, params, output_dir, formats }) => ({ path, model, params, output_dir, formats }));
}

/** What is wrong with the folder, and when the watcher looks again ("… Trying again at 4:48 PM."); null when nothing is. */
export function describeProblem(status: WatchFolderStatus): string | null {
  if (!status.error) return null;
  const problem = describeError(status.error.code, status.error.message);
  return status.next_retry_at ? `${problem} ${t('watch.retryAt', { time: formatTime(status.next_retry_at) })}` : problem;
}

/** One line of counts, e.g. "3 done · 1 in the queue · 1 failed". */
export function describeCounts(status: WatchFolderStatus): string {
  const parts = [
    [status.files_done, 'done'],
    [status.files_queued, 'queued'],
    [status.files_waiting, 'copying'],
    [status.files_failed, 'failed'],
    [status.files_skipped, 'skipped'],
  ] as const;
  const shown = parts.filter(([n]) => n > 0).map(([count, kind]) => t(`watch.counts.${kind}`, { count }));
  return shown.length ? shown.join(' · ') : t('watch.counts.none');
}

/** A folder's state in a word ("Watching"). */
export function stateLabel(state: WatchFolderStatus['state']): string {
  return t(`watch.state.${state}`);
}
