/** The downloader against a real local HTTP server: resume with Range after a drop, restarts, 404, server down. */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fetchToPart, sha256File } from '../../../../src-main/models/downloads/http-download.js';
import { startRangeServer, type RangeServer } from '../../../helpers/range-server.js';
import { PackageError } from '../../../../src-main/common/errors.js';

let dir: string;
let server: RangeServer | null = null;
const body = randomBytes(300_000);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-dl-'));
});
afterEach(async () => {
  await server?.close();
  server = null;
  rmSync(dir, { recursive: true, force: true });
});

function options(url: string, extra: Partial<Parameters<typeof fetchToPart>[0]> = {}) {
  const progress: number[] = [];
  return {
    progress,
    opts: {
      url,
      partPath: join(dir, 'f.part'),
      etag: null,
      expectedSize: body.length,
      signal: new AbortController().signal,
      onProgress: (done: number) => progress.push(done),
      backoffMs: 10,
      ...extra,
    },
  };
}

describe('fetchToPart', () => {
  it('downloads a file whole and reports progress up to its size', async () => {
    server = await startRangeServer({ '/a.bin': { body } });
    const { opts, progress } = options(`${server.url}/a.bin`);
    const result = await fetchToPart(opts);
    expect(result.bytes).toBe(body.length);
    expect(readFileSync(opts.partPath).equals(body)).toBe(true);
    expect(progress.at(-1)).toBe(body.length);
    expect(result.etag).toMatch(/^"/);
  });

  it('resumes with Range and If-Range after the connection drops mid-way', async () => {
    server = await startRangeServer({ '/a.bin': { body, dropAfter: 100_000, dropTimes: 2 } });
    const { opts } = options(`${server.url}/a.bin`);
    await fetchToPart(opts);
    expect(readFileSync(opts.partPath).equals(body)).toBe(true);
    expect(server.requests.map((r) => r.status)).toEqual([200, 206, 206]);
    // The resume starts where the part file ended (at most where the server cut the connection).
    const resumedAt = Number(/^bytes=(\d+)-$/.exec(server.requests[1]!.range ?? '')?.[1]);
    expect(resumedAt).toBeGreaterThan(0);
    expect(resumedAt).toBeLessThanOrEqual(100_000);
    expect(server.requests[1]!.ifRange).toMatch(/^"/);
  });

  it('resumes a part file left by an earlier run (restart), sending the saved ETag', async () => {
    server = await startRangeServer({ '/a.bin': { body } });
    writeFileSync(join(dir, 'f.part'), body.subarray(0, 123_456));
    const first = await fetchToPart(options(`${server.url}/a.bin`, { expectedSize: null }).opts);
    expect(first.bytes).toBe(body.length);
    expect(server.requests[0]).toMatchObject({ range: 'bytes=123456-', status: 206 });
    expect(readFileSync(join(dir, 'f.part')).equals(body)).toBe(true);
  });

  it('starts over cleanly when the server answers 200 to a range request', async () => {
    server = await startRangeServer({ '/a.bin': { body, ignoreRange: true } });
    writeFileSync(join(dir, 'f.part'), Buffer.alloc(5000, 7)); // stale bytes that must not survive
    const { opts } = options(`${server.url}/a.bin`);
    await fetchToPart(opts);
    expect(server.requests[0]).toMatchObject({ range: 'bytes=5000-', status: 200 });
    expect(readFileSync(opts.partPath).equals(body)).toBe(true);
  });

  it('starts over when the file changed on the server (If-Range with an old ETag gets a 200)', async () => {
    server = await startRangeServer({ '/a.bin': { body } });
    writeFileSync(join(dir, 'f.part'), Buffer.alloc(5000, 7));
    const { opts } = options(`${server.url}/a.bin`, { etag: '"an-old-version"' });
    await fetchToPart(opts);
    expect(server.requests[0]).toMatchObject({ ifRange: '"an-old-version"', status: 200 });
    expect(readFileSync(opts.partPath).equals(body)).toBe(true);
  });

  it('follows redirects (release downloads redirect to a CDN)', async () => {
    server = await startRangeServer({ '/real.bin': { body } });
    const redirect = http.createServer((_req, res) => res.writeHead(302, { location: `${server!.url}/real.bin` }).end());
    await new Promise<void>((r) => redirect.listen(0, '127.0.0.1', () => r()));
    try {
      const { opts } = options(`http://127.0.0.1:${(redirect.address() as AddressInfo).port}/x`);
      await fetchToPart(opts);
      expect(readFileSync(opts.partPath).equals(body)).toBe(true);
    } finally {
      redirect.close();
    }
  });

  it('fails at once with download_failed on 404 (not retried)', async () => {
    server = await startRangeServer({});
    const { opts } = options(`${server.url}/missing.bin`);
    const err = await fetchToPart(opts).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PackageError);
    expect((err as PackageError).code).toBe('download_failed');
    expect((err as PackageError).message).toContain('HTTP 404');
    expect(server.requests).toHaveLength(1);
  });

  it('retries with backoff, then fails with download_failed when the server is down', async () => {
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const { opts } = options(`http://127.0.0.1:${port}/a.bin`, { retries: 2 });
    const err = await fetchToPart(opts).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PackageError);
    expect((err as PackageError).code).toBe('download_failed');
    expect((err as PackageError).message).toMatch(/cannot reach 127\.0\.0\.1/);
  });

  it('rejects an unsupported URL scheme with a clear message', async () => {
    const err = await fetchToPart(options('ftp://example.org/a.bin').opts).catch((e: unknown) => e);
    expect((err as PackageError).message).toContain('unsupported URL scheme ftp:');
  });

  it('stops with cancelled when aborted, keeping the part file', async () => {
    server = await startRangeServer({ '/a.bin': { body, slowChunkMs: 50 } });
    const controller = new AbortController();
    const { opts } = options(`${server.url}/a.bin`, {
      signal: controller.signal,
      onProgress: (done: number) => {
        if (done > 0) controller.abort();
      },
    });
    const err = await fetchToPart(opts).catch((e: unknown) => e);
    expect((err as PackageError).code).toBe('cancelled');
    expect(existsSync(opts.partPath)).toBe(true);
  });

  it('sha256File hashes the bytes on disk', async () => {
    writeFileSync(join(dir, 'x'), body);
    expect(await sha256File(join(dir, 'x'))).toBe(createHash('sha256').update(body).digest('hex'));
  });
});
