/**
 * How rows name stored files (store/objects/object-keys.ts) and how `--storage` is read (storage-location.ts): a
 * folder keeps absolute paths exactly as before; a bucket's rows keep storage-relative keys, the same on every node,
 * resolved into each node's own cache; bad values are refused with what is accepted.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isStorageKey, keyUnder, localPathOf, objectKey } from '../../../../src-main/store/objects/object-keys.js';
import { describeLocation, parseStorageLocation } from '../../../../src-main/store/objects/storage-location.js';
import { folderFiles } from '../../../../src-main/store/objects/stored-files.js';

describe('the names rows keep for stored files', () => {
  it('are storage-relative keys with forward slashes, for files under the storage root only', () => {
    expect(keyUnder('/cache', '/cache/uploads/acc_1/up_2/jfk.wav')).toBe('uploads/acc_1/up_2/jfk.wav');
    expect(keyUnder('/cache', '/cache/artifacts/job_1/speech.mp3')).toBe('artifacts/job_1/speech.mp3');
    expect(keyUnder('/cache', '/cache')).toBeNull();
    expect(keyUnder('/cache', '/elsewhere/watched.wav')).toBeNull();
    expect(keyUnder('/cache', '/cache-other/x.wav')).toBeNull();
  });

  it('resolve on each node into its own root, the same key to a different path; absolute paths stay as they are', () => {
    const key = 'uploads/acc_1/up_2/jfk.wav';
    expect(localPathOf('/node-a/storage-cache', key)).toBe(join('/node-a/storage-cache', 'uploads', 'acc_1', 'up_2', 'jfk.wav'));
    expect(localPathOf('/node-b/storage-cache', key)).toBe(join('/node-b/storage-cache', 'uploads', 'acc_1', 'up_2', 'jfk.wav'));
    expect(localPathOf('/node-a/storage-cache', '/mnt/shared/uploads/a.wav')).toBe('/mnt/shared/uploads/a.wav');
    expect(isStorageKey(key)).toBe(true);
    expect(isStorageKey('/mnt/shared/uploads/a.wav')).toBe(false);
  });

  it('never climb out of the root', () => {
    expect(() => localPathOf('/cache', 'uploads/../../etc/passwd')).toThrow('not a storage key');
    expect(() => localPathOf('/cache', 'uploads//x')).toThrow('not a storage key');
  });

  it('are the objects’ names after the prefix', () => {
    expect(objectKey('voxdesk/prod', 'artifacts/job_1/a.mp3')).toBe('voxdesk/prod/artifacts/job_1/a.mp3');
    expect(objectKey('', 'artifacts/job_1/a.mp3')).toBe('artifacts/job_1/a.mp3');
  });

  it('in folder mode are the absolute paths, exactly as before object storage', async () => {
    const files = folderFiles('/mnt/shared');
    expect(files.nameOf('/mnt/shared/uploads/a/b/c.wav')).toBe('/mnt/shared/uploads/a/b/c.wav');
    expect(files.nameOf('/watched/c.wav')).toBeNull();
    expect(await files.keep('/mnt/shared/uploads/a/b/c.wav')).toBe('/mnt/shared/uploads/a/b/c.wav');
    expect(await files.local('/mnt/shared/uploads/a/b/c.wav')).toBe('/mnt/shared/uploads/a/b/c.wav');
  });
});

describe('--storage', () => {
  it('is a folder, or s3://BUCKET[/PREFIX] with an optional endpoint', () => {
    expect(parseStorageLocation('/mnt/voxdesk')).toEqual({ kind: 'folder', dir: '/mnt/voxdesk' });
    expect(parseStorageLocation('s3://voxdesk-media')).toEqual({ kind: 's3', bucket: 'voxdesk-media', prefix: '', endpoint: null });
    expect(parseStorageLocation('s3://voxdesk-media/cluster/one/')).toEqual({ kind: 's3', bucket: 'voxdesk-media', prefix: 'cluster/one', endpoint: null });
    const withEndpoint = parseStorageLocation('s3://media/p', 'http://127.0.0.1:9000/');
    expect(withEndpoint).toEqual({ kind: 's3', bucket: 'media', prefix: 'p', endpoint: 'http://127.0.0.1:9000' });
    expect(describeLocation(withEndpoint)).toBe('s3://media/p at http://127.0.0.1:9000');
  });

  it('refuses other schemes, bad bucket names, bad prefixes and bad endpoints, saying what is accepted', () => {
    expect(() => parseStorageLocation('gs://bucket/p')).toThrow(/gs:\/\/ is not supported; it takes a folder path, or s3:\/\/BUCKET/);
    expect(() => parseStorageLocation('s3://Bad_Bucket/p')).toThrow(/"Bad_Bucket" is not a bucket name/);
    expect(() => parseStorageLocation('s3://ab')).toThrow(/is not a bucket name/);
    expect(() => parseStorageLocation('s3:///prefix')).toThrow(/is not a bucket name/);
    expect(() => parseStorageLocation('s3://bucket/a//b')).toThrow(/empty, "." or ".." part/);
    expect(() => parseStorageLocation('s3://bucket/a/../b')).toThrow(/empty, "." or ".." part/);
    expect(() => parseStorageLocation('s3://bucket/p', 'ftp://host')).toThrow('--storage-endpoint must be an http:// or https:// URL');
    expect(() => parseStorageLocation('s3://bucket/p', 'not a url')).toThrow('--storage-endpoint takes the URL of an S3-compatible service');
    expect(() => parseStorageLocation('/mnt/voxdesk', 'http://127.0.0.1:9000')).toThrow('--storage-endpoint is for S3 storage only');
  });
});
