/**
 * Where installed model packages (one folder each, `models/<id>/`) are kept. In folder mode the package folder is in
 * the storage folder and a row names it by its path, as before object storage. With a bucket, the node that installs
 * a package (a download or an import) puts its files in the bucket once, the row names it by its storage-relative
 * key (`models/<id>`), and every other node fetches the whole folder into its own data dir on its first use of it.
 * Packages are kept whole on a node that used them, outside the cache bound of uploads and artifacts (an engine may
 * hold them open for as long as it runs).
 */
export interface StoredPackages {
  /** What a row keeps for the package folder at `dir` (folder: the path; bucket: the key). */
  toRow(dir: string): string;
  /** The local folder a row's name has on this node (nothing is fetched). */
  fromRow(stored: string): string;
  /** The installed folder, complete on local disk, goes to storage (bucket: every file put, streamed). */
  publish(dir: string): Promise<void>;
  /** The folder complete on local disk for package version `installedAt` (bucket: fetched when not yet here). */
  fetch(dir: string, installedAt: string): Promise<void>;
  /** The package's files in storage are deleted (bucket: its objects; the local folder is the caller's). */
  remove(dir: string): Promise<void>;
}

/** Packages in a folder: rows name paths; nothing to put, fetch or delete beyond the folder itself. */
export const FOLDER_PACKAGES: StoredPackages = {
  toRow: (dir) => dir,
  fromRow: (stored) => stored,
  publish: async () => undefined,
  fetch: async () => undefined,
  remove: async () => undefined,
};
