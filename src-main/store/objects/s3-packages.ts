/**
 * Model packages in an S3-compatible bucket (stored-packages.ts): a package folder is put file by file under its key
 * (`<prefix>/models/<id>/…`), and fetched file by file into a node's folder, each file streamed. A fetched folder is
 * marked complete with the version it holds (`.voxdesk-fetched`, the row's installedAt), so a package installed
 * again under the same id is fetched again, and a fetch cut short is completed on the next use.
 */
import { DeleteObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { keyUnder, localPathOf, objectKey } from './object-keys.js';
import type { S3Location } from './storage-location.js';
import type { StoredPackages } from './stored-packages.js';
import { downloadObject, uploadObject } from './object-transfer.js';

/** The marker of a complete local copy; never put in the bucket. */
export const FETCHED_MARKER = '.voxdesk-fetched';

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(path)));
    else if (entry.isFile() && entry.name !== FETCHED_MARKER) out.push(path);
  }
  return out;
}

export function s3Packages(client: S3Client, location: S3Location, root: string): StoredPackages {
  const bucket = location.bucket;
  const fetching = new Map<string, Promise<void>>();

  /** The key of a package folder under root; a folder elsewhere (an old row) is not the bucket's. */
  const keyOf = (dir: string): string | null => keyUnder(root, dir);

  async function listKeys(prefix: string): Promise<{ key: string; bytes: number }[]> {
    const keys: { key: string; bytes: number }[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }));
      for (const object of page.Contents ?? []) if (object.Key) keys.push({ key: object.Key, bytes: object.Size ?? 0 });
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys;
  }

  async function publish(dir: string): Promise<void> {
    const key = keyOf(dir);
    if (key === null) return;
    for (const path of await filesUnder(dir)) {
      await uploadObject(client, bucket, objectKey(location.prefix, `${key}/${relative(dir, path).split(sep).join('/')}`), path);
    }
  }

  async function fetchAll(dir: string, key: string, installedAt: string): Promise<void> {
    const marker = join(dir, FETCHED_MARKER);
    if ((await readFile(marker, 'utf8').catch(() => null)) === installedAt) return;
    const prefix = `${objectKey(location.prefix, key)}/`;
    const objects = await listKeys(prefix);
    if (objects.length === 0) throw new Error(`the model package ${key} is not in the storage bucket`);
    await rm(marker, { force: true });
    for (const object of objects) {
      const path = localPathOf(dir, object.key.slice(prefix.length));
      const here = await stat(path).catch(() => undefined);
      if (here?.size === object.bytes) continue; // fetched before a cut: only what is missing comes again
      await downloadObject(client, bucket, object.key, path);
    }
    await writeFile(marker, installedAt, { mode: 0o600 });
  }

  async function fetch(dir: string, installedAt: string): Promise<void> {
    const key = keyOf(dir);
    if (key === null) return;
    let pending = fetching.get(dir);
    if (!pending) {
      pending = fetchAll(dir, key, installedAt).finally(() => fetching.delete(dir));
      fetching.set(dir, pending);
    }
    await pending;
  }

  async function remove(dir: string): Promise<void> {
    const key = keyOf(dir);
    if (key === null) return;
    // One by one: a package has a handful of files, and a multi-object delete needs a checksum header that
    // S3-compatible services take in different forms.
    for (const object of await listKeys(`${objectKey(location.prefix, key)}/`)) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: object.key }));
    }
  }

  return {
    toRow: (dir) => keyOf(dir) ?? dir,
    fromRow: (stored) => localPathOf(root, stored),
    publish,
    fetch,
    remove,
  };
}
