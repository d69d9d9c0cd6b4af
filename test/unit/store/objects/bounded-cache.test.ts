/**
 * A node's cache of the bucket stays under its bound (store/objects/bounded-cache.ts): least recently used files go
 * first, a file in use is never removed, the file just added stays even when it alone is past the bound, and a
 * restart takes in what is on disk, oldest first.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BoundedCache } from '../../../../src-main/store/objects/bounded-cache.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function file(dir: string, name: string, bytes: number, mtimeSeconds?: number): string {
  const path = join(dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, Buffer.alloc(bytes));
  if (mtimeSeconds !== undefined) utimesSync(path, mtimeSeconds, mtimeSeconds);
  return path;
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'voxdesk-cache-'));
  dirs.push(dir);
  return dir;
}

describe('the bounded cache', () => {
  it('removes the least recently used files once past its bound', async () => {
    const dir = tempDir();
    const cache = new BoundedCache(250);
    const [a, b, c] = [file(dir, 'a', 100), file(dir, 'b', 100), file(dir, 'c', 100)];
    await cache.add(a, 100);
    await cache.add(b, 100);
    expect(cache.touch(a)).toBe(true); // a is used again: b is now the oldest
    await cache.add(c, 100);
    expect(cache.bytes).toBe(200);
    expect([existsSync(a), existsSync(b), existsSync(c)]).toEqual([true, false, true]);
    expect(cache.has(b)).toBe(false);
  });

  it('never removes a file in use, and removes it once released if still past the bound', async () => {
    const dir = tempDir();
    const cache = new BoundedCache(150);
    const [a, b] = [file(dir, 'a', 100), file(dir, 'b', 100)];
    await cache.add(a, 100);
    const release = cache.pin(a);
    await cache.add(b, 100);
    expect([existsSync(a), existsSync(b)]).toEqual([true, true]);
    expect(cache.bytes).toBe(200);
    const c = file(dir, 'c', 10);
    release();
    release(); // twice is once
    await cache.add(c, 10);
    expect(cache.has(a)).toBe(false);
    expect(cache.bytes).toBe(110);
    await expect.poll(() => existsSync(a)).toBe(false);
  });

  it('keeps the file just added even when it alone is past the bound', async () => {
    const dir = tempDir();
    const cache = new BoundedCache(50);
    const big = file(dir, 'big', 100);
    await cache.add(big, 100);
    expect(existsSync(big)).toBe(true);
    const next = file(dir, 'next', 10);
    await cache.add(next, 10);
    expect(existsSync(big)).toBe(false);
    expect(cache.bytes).toBe(10);
  });

  it('takes in the files on disk at start, oldest first, and forgets deleted ones without touching the disk', async () => {
    const dir = tempDir();
    const old = file(dir, 'uploads/acc/up1/old.wav', 100, 1_000);
    const newer = file(dir, 'artifacts/job/newer.mp3', 100, 2_000);
    const cache = new BoundedCache(150);
    cache.adopt(dir);
    cache.adopt(join(dir, 'missing-folder'));
    expect(cache.bytes).toBe(200);
    const added = file(dir, 'uploads/acc/up2/new.wav', 40);
    await cache.add(added, 40);
    expect([existsSync(old), existsSync(newer), existsSync(added)]).toEqual([false, true, true]);
    cache.forget(newer);
    expect(cache.bytes).toBe(40);
    expect(existsSync(newer)).toBe(true);
  });
});
