/**
 * How rows name stored files. In folder mode a row keeps the file's absolute path, exactly as before object storage
 * existed (so existing installs need no migration). With object storage a row keeps a storage-relative key
 * (`uploads/<account>/<upload>/<file>`, `artifacts/<job>/<file>`): the same on every node, whatever its data dir, and
 * the object's name in the bucket after the location's prefix. Each node resolves a key to a path in its own cache,
 * which mirrors the keys.
 */
import { isAbsolute, join, relative, sep } from 'node:path';

/** The storage-relative key of a file under `root`, forward slashes; null for a file outside it (not ours). */
export function keyUnder(root: string, localPath: string): string | null {
  const inside = relative(root, localPath);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return null;
  return inside.split(sep).join('/');
}

/** A row's name is a key (and not a path) when it is relative. */
export function isStorageKey(stored: string): boolean {
  return !isAbsolute(stored);
}

/** The local path of a row's name: an absolute path as it is; a key under `root`. A key that climbs out is refused. */
export function localPathOf(root: string, stored: string): string {
  if (!isStorageKey(stored)) return stored;
  const parts = stored.split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..')) throw new Error(`not a storage key: ${stored}`);
  return join(root, ...parts);
}

/** The object's name in the bucket: the prefix, then the key. */
export function objectKey(prefix: string, key: string): string {
  return prefix ? `${prefix}/${key}` : key;
}
