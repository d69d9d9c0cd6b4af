/**
 * What a node is told by its command line and environment: the database (a PostgreSQL URL, or none for the data
 * dir's SQLite file), the log format, and the cluster options of `voxdesk serve` and `voxdesk worker` — bad values
 * refused with what is accepted, before anything is opened.
 */
import { describe, expect, it } from 'vitest';
import { clusterConfig } from '../../../../src-main/cli/cluster-options.js';
import { chooseDatabaseUrl } from '../../../../src-main/service/open-store.js';
import { createLog } from '../../../../src-main/common/log.js';
import { chooseLogFormat, sinkFor } from '../../../../src-main/service/ops/log-format.js';

describe('the database URL', () => {
  it('is the option, else VOXDESK_DATABASE_URL, else none (the SQLite file)', () => {
    expect(chooseDatabaseUrl(undefined, {})).toBeNull();
    expect(chooseDatabaseUrl('', { VOXDESK_DATABASE_URL: '  ' })).toBeNull();
    expect(chooseDatabaseUrl(undefined, { VOXDESK_DATABASE_URL: 'postgres://db/voxdesk' })).toBe('postgres://db/voxdesk');
    expect(chooseDatabaseUrl('postgresql://a@b/c', { VOXDESK_DATABASE_URL: 'postgres://db/voxdesk' })).toBe('postgresql://a@b/c');
  });

  it('must be PostgreSQL’s, and the message names where it came from', () => {
    expect(() => chooseDatabaseUrl('mysql://db/x', {})).toThrow(/--database must be a PostgreSQL URL/);
    expect(() => chooseDatabaseUrl(undefined, { VOXDESK_DATABASE_URL: '/var/lib/voxdesk.db' })).toThrow(/VOXDESK_DATABASE_URL must be a PostgreSQL URL/);
  });
});

describe('the log format', () => {
  it('is text unless json is asked for; anything else is refused', () => {
    expect(chooseLogFormat(undefined, {})).toBe('text');
    expect(chooseLogFormat(undefined, { VOXDESK_LOG_FORMAT: 'json' })).toBe('json');
    expect(() => chooseLogFormat('xml', {})).toThrow('--log-format must be one of text, json, got "xml"');
  });

  it('writes the message as it is in text, and one JSON object per line in json', () => {
    const lines: string[] = [];
    createLog(sinkFor('text', { role: 'serve' }, (line) => lines.push(line))).child('watch').info('plain words');
    createLog(sinkFor('json', { role: 'worker', node: 'n1' }, (line) => lines.push(line))).child('jobs').error('a "quoted"\nthing', { job_id: 'j1' });
    expect(lines[0]).toBe('plain words\n');
    expect(lines[1]!.endsWith('\n')).toBe(true);
    expect(lines[1]!.trim().includes('\n')).toBe(false);
    expect(JSON.parse(lines[1]!)).toMatchObject({ level: 'error', role: 'worker', node: 'n1', scope: 'jobs', msg: 'a "quoted"\nthing', job_id: 'j1' });
  });
});

describe('the cluster options', () => {
  it('carry the database, the storage folder and the lease into the configuration', () => {
    const { config, databaseUrl } = clusterConfig({ database: 'postgres://db/v', storage: '/mnt/shared', leaseSeconds: 5 }, 'worker', {});
    expect(databaseUrl).toBe('postgres://db/v');
    expect(config).toMatchObject({ databaseUrl: 'postgres://db/v', storageDir: '/mnt/shared', leaseSeconds: 5 });
    expect(clusterConfig({}, 'serve', { VOXDESK_STORAGE: '/srv/voxdesk' }).config.storageDir).toBe('/srv/voxdesk');
    expect(clusterConfig({}, 'serve', {}).config).not.toHaveProperty('storageDir');
  });

  it('take an S3 bucket for --storage, with its endpoint and the cache bound, from the options or the environment', () => {
    const { config } = clusterConfig({ storage: 's3://media/cluster', storageEndpoint: 'http://127.0.0.1:9000', storageCacheMb: 64 }, 'worker', {});
    expect(config).not.toHaveProperty('storageDir');
    expect(config.objectStorage).toEqual({ location: { kind: 's3', bucket: 'media', prefix: 'cluster', endpoint: 'http://127.0.0.1:9000' }, cacheBytes: 64 * 1024 * 1024 });
    const fromEnv = clusterConfig({}, 'serve', { VOXDESK_STORAGE: 's3://media', VOXDESK_S3_ENDPOINT: 'https://s3.example.org', VOXDESK_STORAGE_CACHE_MB: '512' }).config;
    expect(fromEnv.objectStorage).toEqual({ location: { kind: 's3', bucket: 'media', prefix: '', endpoint: 'https://s3.example.org' }, cacheBytes: 512 * 1024 * 1024 });
    expect(clusterConfig({ storage: 's3://media' }, 'serve', {}).config.objectStorage?.cacheBytes).toBe(10_240 * 1024 * 1024);
  });

  it('refuse other URLs, an endpoint without a bucket and a bad cache bound, saying what is accepted', () => {
    expect(() => clusterConfig({ storage: 'ftp://host/dir' }, 'serve', {})).toThrow('--storage: ftp:// is not supported; it takes a folder path, or s3://BUCKET or s3://BUCKET/PREFIX');
    expect(() => clusterConfig({ storage: 's3://UPPER/x' }, 'serve', {})).toThrow('"UPPER" is not a bucket name');
    expect(() => clusterConfig({ storageEndpoint: 'http://127.0.0.1:9000' }, 'serve', {})).toThrow('--storage-endpoint is for S3 storage');
    expect(() => clusterConfig({ storage: '/mnt/x' }, 'serve', { VOXDESK_S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow('--storage-endpoint is for S3 storage only');
    expect(() => clusterConfig({ storage: 's3://media' }, 'serve', { VOXDESK_STORAGE_CACHE_MB: 'lots' })).toThrow('VOXDESK_STORAGE_CACHE_MB must be a number of megabytes');
  });
});
