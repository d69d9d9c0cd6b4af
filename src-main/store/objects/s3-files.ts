/**
 * Stored files in an S3-compatible bucket (AWS SDK v3), through a bounded cache in this node's data dir: engines and
 * the HTTP layer work on local files, so a file is written locally and then put in the bucket (`keep`), and a node
 * that needs a file it does not have fetches it (`hold`, `local`). Both directions stream between the file and the
 * socket; nothing is read whole into memory. Nothing is read from another node's disk: the bucket is the only place
 * nodes share.
 *
 * Credentials and region come from the SDK's default chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, AWS_PROFILE,
 * AWS_REGION, the instance's role, …). With an endpoint (an S3-compatible service) addressing is path-style, the
 * region defaults to us-east-1 when none is set, and checksums are sent only where the operation needs one (most
 * S3-compatible services do not take the SDK's newer default of a checksum trailer on every upload).
 */
import { DeleteObjectCommand, HeadBucketCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { BoundedCache } from './bounded-cache.js';
import { isStorageKey, keyUnder, localPathOf, objectKey } from './object-keys.js';
import { describeLocation, type S3Location } from './storage-location.js';
import { folderFiles, type HeldFile, type StoredFiles } from './stored-files.js';
import { downloadObject, statusOf, uploadObject } from './object-transfer.js';
import { s3Packages } from './s3-packages.js';

export interface S3FilesOptions {
  location: S3Location;
  /** This node's cache: a folder in its data dir, mirroring the keys. */
  cacheDir: string;
  /** The cache's bound in bytes (files in use may exceed it while they are used). */
  cacheBytes: number;
  env?: NodeJS.ProcessEnv;
}

/** The client for a location: path-style and the lenient checksum settings when an endpoint is given. */
export function s3Client(location: S3Location, env: NodeJS.ProcessEnv = process.env): S3Client {
  const config: S3ClientConfig = {
    // A connection that cannot be opened fails in seconds, so a wrong endpoint stops the start instead of hanging it.
    requestHandler: { connectionTimeout: 10_000 },
  };
  if (location.endpoint) {
    Object.assign(config, {
      endpoint: location.endpoint,
      forcePathStyle: true,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    } satisfies S3ClientConfig);
    if (!env.AWS_REGION && !env.AWS_DEFAULT_REGION && !env.AWS_PROFILE) config.region = 'us-east-1';
  }
  return new S3Client(config);
}

/** Why the start-up check failed, in words that say what to fix. */
export function explainCheckFailure(location: S3Location, error: unknown): string {
  const where = describeLocation(location);
  const status = statusOf(error);
  const name = (error as Error).name;
  const detail = (error as Error).message || name;
  if (/region is missing/i.test(detail)) return `no AWS region for ${where}: set AWS_REGION to the bucket's region (or give --storage-endpoint for an S3-compatible service)`;
  if (name === 'CredentialsProviderError') return `no AWS credentials for ${where}: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE) (${detail})`;
  if (status === 404 || name === 'NotFound' || name === 'NoSuchBucket') return `the bucket ${location.bucket} does not exist (${where}): create it, or correct --storage`;
  if (status === 403 || status === 401) return `${where} refused these credentials (HTTP ${status}): check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and the bucket's policy`;
  if (status === 301 || name === 'PermanentRedirect') return `the bucket ${location.bucket} is in another region: set AWS_REGION to the bucket's region`;
  if (status !== undefined) return `${where} answered HTTP ${status} to a check of the bucket: ${detail}`;
  return `${where} could not be reached: ${detail}; check --storage-endpoint (VOXDESK_S3_ENDPOINT) and the network`;
}

/** The folders of the cache whose files count against its bound (model packages are kept whole: s3-packages.ts). */
export const CACHED_FOLDERS = ['uploads', 'artifacts'];

export function s3Files(options: S3FilesOptions): StoredFiles & { readonly cache: BoundedCache; close(): void } {
  const { location, cacheDir } = options;
  const client = s3Client(location, options.env);
  const cache = new BoundedCache(options.cacheBytes);
  for (const folder of CACHED_FOLDERS) cache.adopt(join(cacheDir, folder));
  const folder = folderFiles(cacheDir);
  const bucket = location.bucket;
  const fetching = new Map<string, Promise<string>>();

  const nameOf = (localPath: string): string | null => keyUnder(cacheDir, localPath);
  const pathOf = (stored: string): string => localPathOf(cacheDir, stored);

  async function present(path: string): Promise<boolean> {
    const stats = await stat(path).catch(() => undefined);
    if (!stats) {
      cache.forget(path);
      return false;
    }
    if (!cache.touch(path)) await cache.add(path, stats.size);
    return true;
  }

  async function fetch(key: string, path: string): Promise<string> {
    await downloadObject(client, bucket, objectKey(location.prefix, key), path);
    await cache.add(path, (await stat(path)).size);
    return path;
  }

  async function local(stored: string): Promise<string> {
    if (!isStorageKey(stored)) return stored; // a path outside storage (a watched folder's file): read where it is
    const path = pathOf(stored);
    if (await present(path)) return path;
    let pending = fetching.get(path);
    if (!pending) {
      pending = fetch(stored, path).finally(() => fetching.delete(path));
      fetching.set(path, pending);
    }
    return pending;
  }

  /** Pinned once present: a copy another fetch's eviction removed in between is fetched again. */
  async function hold(stored: string): Promise<HeldFile> {
    for (let attempt = 1; ; attempt++) {
      const path = await local(stored);
      const release = cache.pin(path);
      if (!isStorageKey(stored) || (await stat(path).catch(() => null))) return { path, release };
      release();
      if (attempt === 3) throw new Error(`${stored} was removed from this node's cache as often as it was fetched: raise --storage-cache-mb`);
    }
  }

  async function keep(localPath: string): Promise<string> {
    const key = nameOf(localPath);
    if (key === null) return localPath;
    const bytes = await uploadObject(client, bucket, objectKey(location.prefix, key), localPath);
    await cache.add(localPath, bytes);
    return key;
  }

  async function remove(stored: string): Promise<void> {
    if (!isStorageKey(stored)) return folder.remove(stored);
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey(location.prefix, stored) }));
    const path = pathOf(stored);
    cache.forget(path);
    await rm(path, { force: true });
  }

  async function check(): Promise<void> {
    try {
      await client.send(new HeadBucketCommand({ Bucket: bucket }));
    } catch (error) {
      throw new Error(explainCheckFailure(location, error), { cause: error });
    }
  }

  const packages = s3Packages(client, location, cacheDir);
  return { kind: 's3', root: cacheDir, cache, packages, nameOf, pathOf, hold, local, keep, remove, check, close: () => client.destroy() };
}
