/**
 * The one way the service reads, keeps and deletes the files it stores (uploads, live recordings, artifacts), whether
 * they live in a folder or in an S3-compatible bucket. Rows name files as object-keys.ts says; callers turn a row's
 * name into a local path with `local` (which fetches an object into this node's cache), hand a file they finished
 * writing under `root` to `keep` (which puts it in the bucket and answers the row's name), and delete with `remove`.
 *
 * The folder implementation here does no I/O beyond what the code did before object storage (absolute paths in
 * rows, files read where they are), so the single-machine SQLite default and a cluster's shared folder are unchanged.
 */
import { rmdir, unlink } from 'node:fs/promises';
import { keyUnder, localPathOf } from './object-keys.js';
import { FOLDER_PACKAGES, type StoredPackages } from './stored-packages.js';

/** A local copy held for a run: the path, and the release that lets the cache remove it again. */
export interface HeldFile {
  path: string;
  release(): void;
}

export interface StoredFiles {
  readonly kind: 'folder' | 's3';
  /** Where files are written before they are kept: the storage folder, or this node's cache of the bucket. */
  readonly root: string;
  /** The row's name for a file written under root (folder: its path; S3: its key); null for a file outside root. */
  nameOf(localPath: string): string | null;
  /** The local path a row's name has on this node (nothing is fetched). */
  pathOf(stored: string): string;
  /** A row's file present on local disk (S3: fetched into the cache, streamed), held until released. */
  hold(stored: string): Promise<HeldFile>;
  /** `hold` without holding: the path of the local copy (it may be removed later to keep the cache bound). */
  local(stored: string): Promise<string>;
  /**
   * A file under root that is complete: S3 puts it in the bucket (streamed). Answers the row's name; a file outside
   * root (a watched folder's file, not ours) keeps its path.
   */
  keep(localPath: string): Promise<string>;
  /**
   * Deletes a stored file (S3: the object and the local copy); one already gone is fine. Other failures throw. Its
   * folder stays: the caller knows whether it may go (`removeIfEmpty`).
   */
  remove(stored: string): Promise<void>;
  /** S3: that the bucket answers with this node's credentials (once, at start), else an Error saying why. */
  check(): Promise<void>;
  /** Installed model packages in the same storage (stored-packages.ts). */
  readonly packages: StoredPackages;
}

/** Removes a folder once empty (the job's or upload's); a folder that is not empty or is gone stays as it is. */
export async function removeIfEmpty(dir: string): Promise<void> {
  await rmdir(dir).catch(() => undefined);
}

/** Storage in a folder: the data dir, or a cluster's shared folder mounted at the same path on every node. */
export function folderFiles(root: string): StoredFiles {
  const pathOf = (stored: string): string => localPathOf(root, stored);
  return {
    kind: 'folder',
    root,
    nameOf: (localPath) => (keyUnder(root, localPath) === null ? null : localPath),
    pathOf,
    hold: async (stored) => ({ path: pathOf(stored), release: () => undefined }),
    local: async (stored) => pathOf(stored),
    keep: async (localPath) => localPath,
    remove: async (stored) => {
      try {
        await unlink(pathOf(stored));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    },
    check: async () => undefined,
    packages: FOLDER_PACKAGES,
  };
}
