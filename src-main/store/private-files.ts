/**
 * The data dir holds recordings, transcripts and the hosted service's key: it is private to the person whose data it
 * is. Folders are created 0700 and files 0600 (on POSIX systems; Windows folders under the user profile are already
 * private). A data dir or database made by an older version with looser modes is tightened when opened.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';

/** Owner read/write/search only. */
export const PRIVATE_DIR_MODE = 0o700;
/** Owner read/write only. */
export const PRIVATE_FILE_MODE = 0o600;

/** Tightens a path to `mode` when group or others have any access to it (and it exists). */
export function tighten(path: string, mode: number): void {
  if (process.platform === 'win32' || !existsSync(path)) return;
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, mode);
}

/** Creates a folder (and its parents) 0700; an existing folder open to others is made 0700. */
export function ensurePrivateDir(path: string): void {
  mkdirSync(path, { recursive: true, mode: PRIVATE_DIR_MODE });
  tighten(path, PRIVATE_DIR_MODE);
}

/** Creates an empty file 0600 unless it exists (then tightens it), so whatever writes it later keeps that mode. */
export function ensurePrivateFile(path: string): void {
  closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
  tighten(path, PRIVATE_FILE_MODE);
}
