/**
 * A node's local copies of stored objects, kept under a byte bound: with object storage every node reads and writes
 * files through a cache in its own data dir (engines and the HTTP layer need local files), and that cache must not
 * grow until the disk is full. Least recently used files go first; a file in use (pinned by a running job) is never
 * removed, so the bound can be exceeded for as long as the files in use need it.
 */
import { readdirSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

interface Entry {
  bytes: number;
  pins: number;
}

export class BoundedCache {
  /** Insertion order is use order: a used entry is deleted and set again, so the first entries are the oldest. */
  private readonly entries = new Map<string, Entry>();
  private total = 0;

  constructor(
    readonly maxBytes: number,
    private readonly remove: (path: string) => Promise<void> = (path) => rm(path, { force: true }),
  ) {}

  /** Takes in the files already in `dir` (a restart keeps its cache), oldest first by modification time. */
  adopt(dir: string): void {
    const found: { path: string; bytes: number; at: number }[] = [];
    const walk = (folder: string): void => {
      let names;
      try {
        names = readdirSync(folder, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of names) {
        const path = join(folder, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.isFile()) {
          const stats = statSync(path, { throwIfNoEntry: false });
          if (stats) found.push({ path, bytes: stats.size, at: stats.mtimeMs });
        }
      }
    };
    walk(dir);
    for (const file of found.sort((a, b) => a.at - b.at)) this.set(file.path, file.bytes);
  }

  get bytes(): number {
    return this.total;
  }

  has(path: string): boolean {
    return this.entries.has(path);
  }

  /**
   * A file now in the cache (or used again): it becomes the most recent. Removes older files past the bound, never
   * this one (it was just wanted: a file larger than the bound stays until the next file comes).
   */
  async add(path: string, bytes: number): Promise<void> {
    this.set(path, bytes);
    await this.evict(path);
  }

  /** Marks a file as used now, without changing its size; false when the cache does not hold it. */
  touch(path: string): boolean {
    const entry = this.entries.get(path);
    if (!entry) return false;
    this.set(path, entry.bytes);
    return true;
  }

  /** Keeps `path` from being removed until the returned release is called (once). */
  pin(path: string): () => void {
    const entry = this.entries.get(path);
    if (!entry) return () => undefined;
    entry.pins += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      entry.pins -= 1;
      if (entry.pins === 0 && this.entries.get(path) === entry) void this.evict();
    };
  }

  /** The file is gone (deleted from storage): forgotten without touching the disk. */
  forget(path: string): void {
    const entry = this.entries.get(path);
    if (!entry) return;
    this.total -= entry.bytes;
    this.entries.delete(path);
  }

  /** Sets a file's size and makes it the most recent; an entry already there stays the same object (its pins hold). */
  private set(path: string, bytes: number): void {
    const entry = this.entries.get(path) ?? { bytes: 0, pins: 0 };
    this.total += bytes - entry.bytes;
    entry.bytes = bytes;
    this.entries.delete(path);
    this.entries.set(path, entry);
  }

  private async evict(keep?: string): Promise<void> {
    if (this.total <= this.maxBytes) return;
    for (const [path, entry] of [...this.entries]) {
      if (this.total <= this.maxBytes) break;
      if (path === keep || entry.pins > 0 || this.entries.get(path) !== entry) continue;
      this.forget(path);
      await this.remove(path).catch(() => undefined); // a copy that cannot be removed now is only disk, not data
    }
  }
}
