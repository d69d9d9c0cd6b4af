/**
 * Moving one object between a bucket and a local file, streamed both ways (never whole in memory). A download goes to
 * a `.part` file beside its target and is renamed into place once complete, so a reader never sees half a file and a
 * cut download leaves nothing that looks finished.
 */
import { GetObjectCommand, PutObjectCommand, S3ServiceException, type S3Client } from '@aws-sdk/client-s3';
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PRIVATE_DIR_MODE } from '../private-files.js';

/** The HTTP status of a failed S3 call, when the service answered. */
export function statusOf(error: unknown): number | undefined {
  return error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
}

/** Downloads `key` to `path`; an object not in the bucket is an Error carrying ENOENT (a missing file to callers). */
export async function downloadObject(client: S3Client, bucket: string, key: string, path: string): Promise<void> {
  let response;
  try {
    response = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  } catch (error) {
    if (statusOf(error) === 404) throw Object.assign(new Error(`${key} is not in the storage bucket`), { code: 'ENOENT', cause: error });
    throw error;
  }
  await mkdir(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
  const part = `${path}.${randomUUID()}.part`;
  try {
    await pipeline(response.Body as Readable, createWriteStream(part, { mode: 0o600 }));
    await rename(part, path);
  } catch (error) {
    await rm(part, { force: true });
    throw error;
  }
}

/** Uploads the file at `path` as `key` (one PUT: files here stay far below S3's 5 GB limit for one). */
export async function uploadObject(client: S3Client, bucket: string, key: string, path: string): Promise<number> {
  const bytes = (await stat(path)).size;
  await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: createReadStream(path), ContentLength: bytes }));
  return bytes;
}
