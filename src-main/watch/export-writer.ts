/**
 * Writes one export beside a recording (or in the folder's output_dir) without ever replacing a file that is already
 * there: `interview.srt` is taken → `interview (1).srt`, then `interview (2).srt` …. The bytes go to a hidden
 * temporary file first (synced), which is then hard-linked to the free name — link() refuses an existing name, so
 * even a file the person saves at that very moment is not overwritten — and the temporary file removed. On a file
 * system without hard links (FAT/exFAT memory cards) it falls back to rename() after checking the name is free.
 * A name that already holds exactly these bytes is taken as this export written before (a restart between writing
 * and recording it), so a restart does not leave `(1)` copies.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, link, lstat, mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';

/** How many numbered names are tried before giving up. */
export const MAX_SUFFIX = 999;

/** Errors of link() meaning "this file system has no hard links here", not "the name is taken". */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV', 'EMLINK']);

function nameFor(base: string, extension: string, n: number): string {
  return n === 0 ? `${base}.${extension}` : `${base} (${n}).${extension}`;
}

async function holdsExactly(path: string, content: Uint8Array): Promise<boolean> {
  try {
    if ((await stat(path)).size !== content.byteLength) return false;
    return Buffer.from(content).equals(await readFile(path));
  } catch {
    return false;
  }
}

async function exists(path: string): Promise<boolean> {
  return access(path, constants.F_OK).then(
    () => true,
    () => false,
  );
}

async function writeSynced(path: string, content: Uint8Array): Promise<void> {
  const handle = await open(path, 'wx', 0o644);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Creates `dir` below `root` folder by folder, refusing any existing folder on the way that is a symbolic link (a
 * subfolder linked elsewhere would send the exports there); `root` itself is the person's choice and may be one.
 */
async function folderBelow(root: string, dir: string): Promise<void> {
  const below = relative(root, dir);
  if (below.startsWith('..') || isAbsolute(below)) throw new Error(`${dir} is not inside ${root}`);
  await mkdir(root, { recursive: true });
  let at = root;
  for (const part of below.split(sep).filter(Boolean)) {
    at = join(at, part);
    try {
      await mkdir(at);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const info = await lstat(at);
      if (info.isSymbolicLink()) throw new Error(`${at} is a symbolic link; exports are not written through links`);
      if (!info.isDirectory()) throw new Error(`${at} is a file, not a folder`);
    }
  }
}

/**
 * Writes `content` as `dir/base.extension` or the first free numbered name (the folders below `root` are created if
 * needed, never followed through a link); resolves with the path written. Rejects when the folder cannot be written,
 * a folder on the way is a link, or every name up to (999) is taken.
 */
export async function writeExportFile(dir: string, base: string, extension: string, content: Uint8Array, root: string = dir): Promise<string> {
  await folderBelow(root, dir);
  const temporary = join(dir, `.${base}.${extension}.${randomBytes(6).toString('hex')}.voxdesk-tmp`);
  await writeSynced(temporary, content);
  try {
    for (let n = 0; n <= MAX_SUFFIX; n++) {
      const target = join(dir, nameFor(base, extension, n));
      if (await holdsExactly(target, content)) return target;
      try {
        await link(temporary, target);
        return target;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? '';
        if (code === 'EEXIST') continue;
        if (!NO_HARD_LINKS.has(code)) throw error;
        if (await exists(target)) continue;
        await rename(temporary, target);
        return target;
      }
    }
    throw new Error(`${nameFor(base, extension, 0)} and every numbered name up to (${MAX_SUFFIX}) already exist in ${dir}`);
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}
