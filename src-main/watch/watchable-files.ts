/**
 * Which files in a watched folder are recordings to transcribe. Only the audio and video containers the service
 * decodes (the WASM decoders take wav, mp3, flac, ogg, opus, m4a, webm; ffmpeg, when installed, the rest), never a
 * file still being written by a download or sync tool (`.part`, `.crdownload`, `~` …), never a hidden file or folder
 * (dot-names, Office's `~$` locks) — and so never the exports Voxdesk writes beside the recordings.
 */
import { basename, extname, relative, sep } from 'node:path';

/** Extensions (lower case, no dot) of the audio and video files a watch folder picks up. */
export const WATCHED_EXTENSIONS: ReadonlySet<string> = new Set([
  // audio
  'wav', 'wave', 'mp3', 'flac', 'ogg', 'oga', 'opus', 'm4a', 'aac', 'wma', 'aif', 'aiff', 'aifc', 'amr', 'caf', 'mka', 'spx', 'ac3',
  // video (the audio track is transcribed)
  'mp4', 'm4v', 'mov', 'webm', 'mkv', 'avi', 'wmv', '3gp', 'mpg', 'mpeg', 'ts', 'mts',
]);

/** Endings of files that download and sync tools are still writing; they are renamed when complete. */
export const PARTIAL_SUFFIXES: readonly string[] = ['.part', '.partial', '.crdownload', '.download', '.tmp', '.temp', '.filepart', '.!sync', '.syncthing', '~'];

/** A name nobody means as a recording: hidden (`.x`), an editor or Office lock (`~$x`), or a partial download. */
export function isIgnoredName(name: string): boolean {
  const lower = name.toLowerCase();
  return name.startsWith('.') || name.startsWith('~$') || PARTIAL_SUFFIXES.some((suffix) => lower.endsWith(suffix));
}

/** True when `path` (a file) is a recording the folder should pick up. */
export function isWatchableFile(path: string): boolean {
  const name = basename(path);
  return !isIgnoredName(name) && WATCHED_EXTENSIONS.has(extname(name).slice(1).toLowerCase());
}

/** True when a path under `root` lies in a hidden or partial folder (any segment below the root ignored). */
export function isInIgnoredFolder(root: string, path: string): boolean {
  const below = relative(root, path);
  if (!below || below.startsWith('..')) return false;
  return below.split(sep).slice(0, -1).some(isIgnoredName);
}
